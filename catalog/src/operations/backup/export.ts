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
//  4. Hold: rows deleted (DELETE, entity hard delete) while the export runs would be gone from the
//     store before the scan reaches them. The export registers a hold before it takes T; while a
//     hold is live the write path copies every row it deletes into a HeldRow stamped with the
//     write's time, and each page merges the held rows of its urn range deleted after T.
import { randomUUID } from 'node:crypto';
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

const DEFAULT_EXPORT_PAGE = 500;
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
      throw unavailable(
        `The export could not reach a consistent moment: ${blocking.length} transaction(s) open since before it began ` +
          `(${blocking
            .slice(0, 5)
            .map((t) => t.transactionId)
            .join(', ')}) did not end within ${timeoutMs} ms; retry, or raise the barrier timeout.`,
      );
    }
    await sleep(100);
  }
}

/** Step 3: one (urn, aspect)'s rows as of `asOf`, numbered as they were then. */
export function rowsAsOf(urn: string, entityType: string, rows: readonly StoredRow[], asOf: number): BackupRow[] {
  const same = (a: StoredRow, b: StoredRow) =>
    a.createdOn === b.createdOn && a.value === b.value && a.systemMetadata === b.systemMetadata && a.createdBy === b.createdBy;
  // A row can be read twice: as the latest and as its archived copy (an update committing while the
  // statement reads), or by the scan and again as held (a delete committing between the two reads).
  const kept = rows.filter((r, i) => (r.createdOn ?? 0) <= asOf && !rows.slice(0, i).some((o) => o.version === r.version && same(o, r)));
  const archives = kept.filter((r) => r.version > 0).sort((a, b) => a.version - b.version);
  const latest = kept.find((r) => r.version === 0);
  const versions = latest && !archives.some((a) => same(a, latest)) ? [...archives, latest] : archives;
  const n = versions.length;
  return versions.map((r, i) => ({
    urn,
    entityType,
    name: r.name,
    version: i === n - 1 ? 0 : i + 1,
    maxVersion: i === n - 1 ? n - 1 : null,
    value: r.value,
    systemMetadata: r.systemMetadata,
    createdOn: r.createdOn,
    createdBy: r.createdBy,
  }));
}

/** How long a hold outlives its export's last renewal if the export dies (ms), and how often a running export renews it. */
const HOLD_TTL_MS = 10 * 60_000;
const HOLD_RENEW_MS = 60_000;
const HELD_PRUNE_BATCH = 10_000;

/** Step 4, before T: from now on the write path keeps a copy of every row it deletes. */
async function beginHold(store: Store): Promise<string> {
  const id = randomUUID();
  const now = Date.now();
  await store.write((tx) => tx.run('backup/hold-begin', { id, now: int(now), expiresAt: int(now + HOLD_TTL_MS) }), {
    metadata: { app: 'backup', op: 'hold-begin' },
  });
  return id;
}

/** Ends a hold (and any whose export died), then drops the held rows no live hold needs. */
async function endHold(store: Store, id: string): Promise<void> {
  const now = int(Date.now());
  await store.write((tx) => tx.run('backup/hold-end', { id, now }), { metadata: { app: 'backup', op: 'hold-end' } });
  for (;;) {
    const [r] = await store.write((tx) => tx.run<{ deleted: number }>('backup/held-rows-prune', { now, batch: int(HELD_PRUNE_BATCH) }), {
      metadata: { app: 'backup', op: 'held-rows-prune' },
    });
    if (!r || r.deleted < HELD_PRUNE_BATCH) return;
  }
}

type ScannedEntity = { urn: string; entityType: string; rows: StoredRow[] };

/** A page's entities with the held rows of its urn range merged in, in urn order. */
function withHeldRows(
  entities: readonly ScannedEntity[],
  held: ReadonlyArray<{ urn: string; entityType: string; row: StoredRow }>,
): ScannedEntity[] {
  if (!held.length) return [...entities];
  const byUrn = new Map(entities.map((e) => [e.urn, { ...e, rows: [...e.rows] }]));
  for (const h of held) {
    let e = byUrn.get(h.urn);
    // An entity hard-deleted during the export: its node is gone, its rows are held.
    if (!e) byUrn.set(h.urn, (e = { urn: h.urn, entityType: h.entityType, rows: [] }));
    e.rows.push(h.row);
  }
  return [...byUrn.values()].sort((a, b) => (a.urn < b.urn ? -1 : a.urn > b.urn ? 1 : 0));
}

/** Rows in a scope now (every version): the progress bar's total. */
async function countExportRows(store: Store, range: UrnRange): Promise<number> {
  const [r] = await store.read((tx) =>
    tx.run<{ total: number }>('backup/count-rows', { lower: range.lower, upper: range.upper, regex: range.regex }),
  );
  return r?.total ?? 0;
}

/** Takes the export's moment (steps 1–2); the returned object streams the file. */
export async function prepareExport(store: Store, options: ExportOptions = {}): Promise<PreparedExport> {
  const pageSize = options.pageSize ?? DEFAULT_EXPORT_PAGE;
  if (!Number.isInteger(pageSize) || pageSize < 1) throw badRequest('The export page size must be a positive integer');
  const range = urnRange({ urnLike: options.urnLike });
  const skew = options.skewMarginMs ?? 1_000;
  const hold = await beginHold(store);
  try {
    // A writer whose clock is ahead by up to the margin stamps after T only once the hold is visible.
    await sleep(skew);
    const asOf = Date.now();
    const totalRows = await countExportRows(store, range);
    await barrier(store, asOf + skew, options.barrierTimeoutMs ?? 120_000);
    const records = () => scan(asOf);
    const chunks = () => chunksOf(records());
    return { asOf, totalRows, records, chunks };
  } catch (e) {
    await endHold(store, hold);
    throw e;
  }

  async function* scan(asOf: number): AsyncGenerator<Record<string, unknown>> {
    let after = '';
    let rows = 0;
    let entities = 0;
    let renewAt = Date.now() + HOLD_RENEW_MS;
    try {
      for (;;) {
        const page = await store.read(async (tx) => {
          const [scanned] = await tx.run<{ last: string | null; entities: ScannedEntity[] }>('backup/scan-entities', {
            after,
            lower: range.lower,
            upper: range.upper,
            regex: range.regex,
            limit: int(pageSize),
          });
          const held = await tx.run<{ urn: string; entityType: string; row: StoredRow }>('backup/held-rows', {
            after,
            last: scanned?.last ?? null,
            lower: range.lower,
            upper: range.upper,
            regex: range.regex,
            asOf: int(asOf),
          });
          return { last: scanned?.last ?? null, entities: withHeldRows(scanned?.entities ?? [], held) };
        });
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
        if (page.last === null) return;
        after = page.last;
        options.onProgress?.({ rows, entities, lastUrn: after });
        if (Date.now() >= renewAt) {
          renewAt = Date.now() + HOLD_RENEW_MS;
          await store.write((tx) => tx.run('backup/hold-renew', { id: hold, expiresAt: int(Date.now() + HOLD_TTL_MS) }), {
            metadata: { app: 'backup', op: 'hold-renew' },
          });
        }
      }
    } finally {
      await endHold(store, hold);
    }
  }

  async function* chunksOf(records: AsyncGenerator<Record<string, unknown>>): AsyncGenerator<string> {
    yield '[';
    let first = true;
    for await (const r of records) {
      yield `${first ? '\n' : ',\n'}${JSON.stringify(r)}`;
      first = false;
    }
    yield '\n]\n';
  }
}
