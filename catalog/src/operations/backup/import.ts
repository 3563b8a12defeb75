// The logical import (docs/operations.md §Import): a file in DataHub's format into this catalog, in
// bounded transactions, resumable. Backup records (with our headers) are stored as the rows they
// were — same versions, stamps and writers — and, in the same transaction, their derived state
// (edges, :LINEAGE, search fields) is kept as the write path keeps it, with its derivation (one
// derivation, docs/lineage-model.md §Restore). Foreign records (DataHub proposals and MCEs) go through the write path, which derives as it
// writes. Either way a committed batch is complete: no second pass over the store.
//
// Every record is checked before its batch is written, and a batch is one transaction: after a
// failure the store holds exactly the batches before it, which is what the checkpoint says.
import { CatalogError, badRequest } from '../../model/errors.ts';
import type { Urn } from '../../model/urn.ts';
import { int, type Store, type Tx } from '../../store/store.ts';
import { lockRows, mergeEdgeRows, rowKey } from '../../store/rows.ts';
import { markWrite } from '../../store/write-generation.ts';
import { writeAspectsInTx, type AspectChange, type ExistenceMode } from '../../write/aspect-writer.ts';
import { reconcileSearchFieldsOf, restoreIndices } from '../restore/restore-indices.ts';
import type { RestoreCursor } from '../restore/restore-args.ts';
import type { RestoreResult } from '../restore/restore-report.ts';
import { checkRow } from '../restore/diff.ts';
import { deleteStaleEdges } from '../../write/persist.ts';
import { edgesOfParsedRow, edgesOfRow, UNKNOWN_ACTOR, type DerivedEdge } from '../../model/relationships.ts';
import {
  lineageChangeEvents,
  MCL_TOPIC,
  metadataChangeLog,
  PLATFORM_EVENT_TOPIC,
  type ChangeRecord,
  type EventTopic,
} from '../../model/change-events.ts';
import { freezeAspectRefs } from '../../store/change-log.ts';
import { importItemOf, type BackupRow, type ImportItem } from './format.ts';
import type { RawRecord } from './json-array.ts';

export const DEFAULT_IMPORT_BATCH = 1000;

/** Where an import stands; persisted after every committed batch (the CLI's checkpoint). */
export interface ImportProgress {
  phase: 'records' | 'derive' | 'done';
  /** Records committed (the next record to read has this index). */
  records: number;
  /** Backup rows stored. */
  rows: number;
  /** Foreign changes written through the write path. */
  changes: number;
  /**
   * Derived state must be rebuilt by a restoreIndices pass (phase derive). Only a checkpoint written
   * before batches derived their own rows sets it; it is kept so such an import still resumes.
   */
  needsDerive: boolean;
  /** restoreIndices' cursor in phase derive. */
  deriveCursor?: RestoreCursor | undefined;
  deriveRows?: number;
}

export interface ImportOptions {
  actor: string;
  existenceMode?: ExistenceMode;
  batchSize?: number;
  /** Continue from a checkpoint (records before it are skipped by the reader). */
  from?: ImportProgress | undefined;
  onProgress?: (p: ImportProgress) => void | Promise<void>;
}

const emptyImportProgress = (): ImportProgress => ({ phase: 'records', records: 0, rows: 0, changes: 0, needsDerive: false });

interface Batch {
  items: Array<{ index: number; item: ImportItem }>;
  first: number;
  count: number;
}

/** A stored row as aspects/fetch-latest returns it. */
interface StoredRow {
  urn: string;
  name: string;
  value: string;
  systemMetadata: string;
  createdBy: string | null;
}

/**
 * The edges a latest backup row derives, and its parsed value; a row that cannot be derived stops
 * the import, naming its record. The online and the offline import (offline-import.ts) both derive
 * through this.
 */
export function derivedEdgesOfBackupRow(row: BackupRow, index: number): { value: unknown; edges: DerivedEdge[] } {
  const check = checkRow(row.urn, row.name, row.value);
  if (!check.ok) throw badRequest(`record ${index}: ${row.urn} ${row.name} cannot be derived: ${check.reason}`);
  // checkRow parsed the value already: derive from it rather than from the text again.
  const parsed = {
    value: check.value,
    systemMetadata: JSON.parse(row.systemMetadata) as { lastObserved?: unknown },
    createdBy: row.createdBy ?? UNKNOWN_ACTOR,
  };
  return { value: check.value, edges: edgesOfParsedRow(check.urn, row.name, parsed) };
}

/**
 * Backup rows: lock their entities as writers do, store the rows as they are, and keep the derived
 * state as the write path keeps it — the edges the replaced latest rows declared give way to those
 * the new ones declare, and the entities' search fields follow their rows. A row that cannot be
 * derived fails the batch, naming its record.
 */
async function putRows(tx: Tx, rows: Array<{ row: BackupRow; urn: Urn; index: number }>, actor: string): Promise<void> {
  await tx.run('aspects/lock-entities', { rows: lockRows(rows.map((r) => r.urn)) });
  // A row written twice in one run is derived once, from what the later record stores.
  const latest = [...new Map(rows.filter(({ row }) => row.version === 0).map((r) => [rowKey(r.row.urn, r.row.name), r])).values()];
  const replaced = latest.length
    ? await tx.run<StoredRow>('aspects/fetch-latest', { keys: latest.map(({ row }) => rowKey(row.urn, row.name)) })
    : [];
  // Events that refer to rows this import overwrites keep what they referred to.
  await freezeAspectRefs(
    tx,
    rows.map(({ row }) => ({ urn: row.urn, aspect: row.name })),
  );
  await tx.run('backup/put-rows', {
    rows: rows.map(({ row }) => ({
      urn: row.urn,
      name: row.name,
      key: rowKey(row.urn, row.name, row.version),
      version: int(row.version),
      maxVersion: row.maxVersion === null ? null : int(row.maxVersion),
      value: row.value,
      systemMetadata: row.systemMetadata,
      createdOn: row.createdOn === null ? null : int(row.createdOn),
      createdBy: row.createdBy,
    })),
  });
  const before = new Map<string, DerivedEdge>();
  for (const r of replaced) {
    const check = checkRow(r.urn, r.name, r.value);
    if (!check.ok) continue; // a stored row that cannot be derived declared no edge
    for (const e of edgesOfRow(check.urn, r.name, { ...r, createdBy: r.createdBy ?? UNKNOWN_ACTOR })) before.set(e.key, e);
  }
  const after = new Map<string, DerivedEdge>();
  for (const { row, index } of latest) {
    for (const e of derivedEdgesOfBackupRow(row, index).edges) after.set(e.key, e);
  }
  await deleteStaleEdges(tx, before, after);
  const owners = new Map(rows.map((r) => [r.urn.text, r.urn]));
  await mergeEdgeRows(tx, [...after.values()], (u) => owners.has(u));
  await reconcileSearchFieldsOf(tx, [...owners.values()]);
  if (tx.changeLog.size)
    tx.record(
      importedChanges(
        latest.map(({ row }) => row),
        replaced,
        before,
        after,
        { actor, topics: tx.changeLog },
      ),
    );
}

/**
 * What an import changed, as the write path records it (docs/change-events.md): a MetadataChangeLog
 * per latest row stored (older versions are history, not changes), then the lineage edges it added
 * or removed.
 */
function importedChanges(
  latest: readonly BackupRow[],
  replaced: readonly StoredRow[],
  before: Map<string, DerivedEdge>,
  after: Map<string, DerivedEdge>,
  o: { actor: string; topics: ReadonlySet<EventTopic> },
): ChangeRecord[] {
  const stamp = { actor: o.actor, time: Date.now() };
  const previous = new Map(replaced.map((r) => [rowKey(r.urn, r.name), r]));
  // An import writes versions as the file numbers them, so its logs carry their text rather than
  // refer to rows by sequence as the write path's do.
  const records = o.topics.has(MCL_TOPIC)
    ? latest.map((row) =>
        metadataChangeLog({
          entityUrn: row.urn,
          aspectName: row.name,
          changeType: 'UPSERT',
          stamp,
          after: row,
          before: previous.get(rowKey(row.urn, row.name)),
        }),
      )
    : [];
  return o.topics.has(PLATFORM_EVENT_TOPIC) ? [...records, ...lineageChangeEvents(before, after, stamp)] : records;
}

/** One batch in one transaction, in file order (a later record may overwrite an earlier one). */
async function writeBatch(store: Store, batch: Batch, options: ImportOptions): Promise<{ rows: number; changes: number }> {
  return store.write(
    async (tx) => {
      let rows = 0;
      let changes = 0;
      let run: Array<{ row: BackupRow; urn: Urn; index: number }> = [];
      let pending: AspectChange[] = [];
      const flushRows = async () => {
        if (!run.length) return;
        await putRows(tx, run, options.actor);
        rows += run.length;
        run = [];
      };
      const flushChanges = async () => {
        if (!pending.length) return;
        await writeAspectsInTx(tx, pending, { actor: options.actor, existenceMode: options.existenceMode ?? 'relaxed' });
        changes += pending.length;
        pending = [];
      };
      for (const { item, index } of batch.items) {
        if (item.kind === 'row') {
          await flushChanges();
          run.push({ row: item.row, urn: item.urn, index });
        } else {
          await flushRows();
          pending.push(...item.changes);
        }
      }
      await flushRows();
      await flushChanges();
      if (rows) await markWrite(tx);
      return { rows, changes };
    },
    { metadata: { purpose: 'lineage-catalog-import' } },
  );
}

/**
 * Imports records (from readJsonArray, started at `from.records`). Resolves with the final
 * progress; a bad record or a failed batch rejects with an error naming the records, and the
 * last progress reported is what the store holds.
 */
export async function importRecords(store: Store, records: AsyncIterable<RawRecord>, options: ImportOptions): Promise<ImportProgress> {
  const batchSize = options.batchSize ?? DEFAULT_IMPORT_BATCH;
  const progress: ImportProgress = { ...(options.from ?? emptyImportProgress()) };
  const report = async () => options.onProgress?.({ ...progress });

  if (progress.phase === 'records') {
    let batch: Batch = { items: [], first: progress.records, count: 0 };
    // A batch too large for one transaction (hubs' lineage: MAX_EDGES_PER_WRITE, or Neo4j's own
    // memory cap) changed nothing: its halves go in turn, each checkpointed, as a smaller
    // --batch-size would have sent them. Only a single record too large fails the import.
    const commitBatch = async (b: Batch): Promise<void> => {
      try {
        const done = await writeBatch(store, b, options);
        progress.rows += done.rows;
        progress.changes += done.changes;
      } catch (e) {
        if (e instanceof CatalogError && e.kind === 'payloadTooLarge' && b.count > 1) {
          const half = Math.ceil(b.count / 2);
          await commitBatch({ items: b.items.slice(0, half), first: b.first, count: half });
          await commitBatch({ items: b.items.slice(half), first: b.first + half, count: b.count - half });
          return;
        }
        const which = `records ${b.first}..${b.first + b.count - 1}`;
        if (e instanceof CatalogError && e.kind !== 'unavailable' && e.kind !== 'deadline') throw badRequest(`${which}: ${e.message}`);
        throw e;
      }
      progress.records = b.first + b.count;
      await report();
    };
    const commit = async () => {
      if (!batch.count) return;
      await commitBatch(batch);
      batch = { items: [], first: progress.records, count: 0 };
    };
    for await (const r of records) {
      if (r.index !== batch.first + batch.count)
        throw badRequest(`record ${r.index}: expected record ${batch.first + batch.count} (the reader and the checkpoint disagree)`);
      batch.items.push({ index: r.index, item: importItemOf(r.index, r.value) });
      batch.count++;
      if (batch.count >= batchSize) await commit();
    }
    await commit();
    progress.phase = progress.needsDerive ? 'derive' : 'done';
    await report();
  }

  if (progress.phase === 'derive') {
    const before = progress.deriveRows ?? 0;
    const result: RestoreResult = await restoreIndices(
      store,
      { batchSize: Math.min(batchSize, 2000), after: progress.deriveCursor },
      async (p) => {
        if (p.phase !== 'rows') return;
        progress.deriveCursor = p.cursor;
        progress.deriveRows = before + p.result.rowsScanned;
        await report();
      },
    );
    if (result.ignored) {
      throw badRequest(
        `derived state: ${result.ignored} stored row(s) could not be derived, e.g. ` +
          result.ignoredRows
            .slice(0, 3)
            .map((r) => `${r.urn} ${r.aspect}: ${r.reason}`)
            .join('; '),
      );
    }
    progress.phase = 'done';
    await report();
  }
  return progress;
}
