// The logical export (docs/operations.md §Export): every stored aspect row of every entity, all
// versions, as DataHub's file format, consistent as of one moment while writes continue.
//
// Neo4j reads are read-committed, so a scan over many transactions sees writes committed while it
// runs. The export is made consistent as of a moment T instead of by one snapshot:
//  1. Every row carries its write stamp `createdOn`, read by the write path only once it holds the
//     entity's lock (write/aspect-writer.ts), so the stamps of one (urn, aspect) grow in commit order,
//     and an update archives the previous latest row — stamp included — as version maxVersion+1.
//  2. Barrier: T is taken, then the export waits until every transaction the server had open at
//     T (+ a clock-skew margin) has ended. After that, every write stamped at or before T has
//     committed, and every write still to commit is stamped after T.
//  3. Each (urn, aspect) is rebuilt as of T from what the scan reads: rows stamped after T are
//     dropped; the newest remaining version becomes the latest (version 0) and the older ones keep
//     their archive numbers, which are 1..n in stamp order. A row read twice (its latest copy and
//     its archived copy, when an update commits while the statement reads) counts once.
// What this cannot undo: rows hard-deleted (DELETE, entity delete) during the export are gone from
// the store, so they are missing from the file as if deleted before T (docs/operations.md §Consistency).
import { urnRange, type UrnRange } from '../restore/diff.ts';
import { badRequest, unavailable } from '../../model/errors.ts';
import { int, type Store } from '../../store/store.ts';
import { recordOfRow, type BackupRow } from './format.ts';

export interface ExportOptions {
  /** Only entities whose urn matches this SQL LIKE pattern (restoreIndices' urnLike). */
  urnLike?: string | undefined;
  /** Entities per read transaction. */
  pageSize?: number | undefined;
  /** Clock skew allowed between the hosts that write and this one (ms). */
  skewMarginMs?: number | undefined;
  /** How long the barrier waits for open transactions before giving up (ms). */
  barrierTimeoutMs?: number | undefined;
  /** Progress after every page: rows written so far, and where the scan is. */
  onProgress?: ((p: { rows: number; entities: number; lastUrn: string }) => void) | undefined;
}

export interface PreparedExport {
  /** The moment the file is consistent as of (epoch ms). */
  asOf: number;
  /** Rows in scope when the export began (every version; a progress total, not a promise). */
  totalRows: number;
  /** The records, in urn, aspect, version order (archives oldest first, then the latest). */
  records(): AsyncGenerator<Record<string, unknown>>;
  /** The file's text in pieces: `[`, one record per piece, `]`. */
  chunks(): AsyncGenerator<string>;
}

export const DEFAULT_EXPORT_PAGE = 500;
const BARRIER_TAG = 'lineage-catalog-export-barrier';

/** A stored row as the export's page reads it, under its entity. */
type StoredRow = Omit<BackupRow, 'urn' | 'entityType'>;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Step 2: waits until no transaction that started at or before `until` (server clock) is open,
 * ours excepted. Write transactions stamp after they start, so none still to commit has a stamp
 * at or before T once this returns (with `until` = T + skew margin).
 */
async function barrier(store: Store, until: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const open = await store.write(
      (tx) => tx.run<{ transactionId: string; startTime: number; metaData: Record<string, unknown> | null }>('backup/open-transactions'),
      { metadata: { purpose: BARRIER_TAG } },
    );
    const ours = (t: { metaData: Record<string, unknown> | null }) => t.metaData?.purpose === BARRIER_TAG;
    const blocking = open.filter((t) => t.startTime <= until && !ours(t));
    // Our own transaction's start is the server's clock: wait until it has passed `until` too.
    const serverNow = Math.max(0, ...open.filter(ours).map((t) => t.startTime));
    if (!blocking.length && serverNow > until) return;
    if (Date.now() > deadline) {
      throw unavailable(`The export could not reach a consistent moment: ${blocking.length} transaction(s) open since before it began ` +
        `(${blocking.slice(0, 5).map((t) => t.transactionId).join(', ')}) did not end within ${timeoutMs} ms; retry, or raise the barrier timeout.`);
    }
    await sleep(100);
  }
}

/** Step 3: one (urn, aspect)'s rows as of `asOf`, numbered as they were then. */
export function rowsAsOf(urn: string, entityType: string, rows: readonly StoredRow[], asOf: number): BackupRow[] {
  const kept = rows.filter((r) => (r.createdOn ?? 0) <= asOf);
  const archives = kept.filter((r) => r.version > 0).sort((a, b) => a.version - b.version);
  const same = (a: StoredRow, b: StoredRow) =>
    a.createdOn === b.createdOn && a.value === b.value && a.systemMetadata === b.systemMetadata && a.createdBy === b.createdBy;
  const latest = kept.find((r) => r.version === 0);
  const versions = latest && !archives.some((a) => same(a, latest)) ? [...archives, latest] : archives;
  const n = versions.length;
  return versions.map((r, i) => ({
    urn, entityType, name: r.name,
    version: i === n - 1 ? 0 : i + 1,
    maxVersion: i === n - 1 ? n - 1 : null,
    value: r.value, systemMetadata: r.systemMetadata, createdOn: r.createdOn, createdBy: r.createdBy,
  }));
}

/** Rows in a scope now (every version): the progress bar's total. */
export async function countExportRows(store: Store, range: UrnRange): Promise<number> {
  const [r] = await store.read((tx) => tx.run<{ total: number }>('backup/count-rows', { lower: range.lower, upper: range.upper, regex: range.regex }));
  return r?.total ?? 0;
}

/** Takes the export's moment (steps 1–2); the returned object streams the file. */
export async function prepareExport(store: Store, options: ExportOptions = {}): Promise<PreparedExport> {
  const pageSize = options.pageSize ?? DEFAULT_EXPORT_PAGE;
  if (!Number.isInteger(pageSize) || pageSize < 1) throw badRequest('The export page size must be a positive integer');
  const range = urnRange({ urnLike: options.urnLike });
  const skew = options.skewMarginMs ?? 1_000;
  const asOf = Date.now();
  const totalRows = await countExportRows(store, range);
  await barrier(store, asOf + skew, options.barrierTimeoutMs ?? 120_000);

  async function* records(): AsyncGenerator<Record<string, unknown>> {
    let after = '';
    let rows = 0;
    let entities = 0;
    for (;;) {
      const [page] = await store.read((tx) => tx.run<{
        last: string | null;
        entities: Array<{ urn: string; entityType: string; rows: StoredRow[] }>;
      }>('backup/scan-entities', { after, lower: range.lower, upper: range.upper, regex: range.regex, limit: int(pageSize) }));
      if (!page || page.last === null) return;
      for (const e of page.entities) {
        const byName = new Map<string, StoredRow[]>();
        for (const r of e.rows) {
          const list = byName.get(r.name);
          if (list) list.push(r);
          else byName.set(r.name, [r]);
        }
        let wrote = false;
        for (const name of [...byName.keys()].sort()) {
          for (const row of rowsAsOf(e.urn, e.entityType, byName.get(name)!, asOf)) {
            yield recordOfRow(row, asOf);
            rows++;
            wrote = true;
          }
        }
        if (wrote) entities++;
      }
      after = page.last;
      options.onProgress?.({ rows, entities, lastUrn: after });
    }
  }

  async function* chunks(): AsyncGenerator<string> {
    yield '[';
    let first = true;
    for await (const r of records()) {
      yield `${first ? '\n' : ',\n'}${JSON.stringify(r)}`;
      first = false;
    }
    yield '\n]\n';
  }

  return { asOf, totalRows, records, chunks };
}
