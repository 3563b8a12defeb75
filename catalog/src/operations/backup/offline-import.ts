// The offline first load (docs/operations.md §Offline first load): an export of this catalog turned
// into neo4j-admin's input files, so that an empty embedded database is loaded at bulk speed
// instead of batch by batch through transactions. Every row, edge and search field is derived by
// the same functions the online import uses (import.ts), so both leave the same graph; what the
// offline load does not write is the change log (it records no events: nothing can have read an
// empty catalog's log) and the write generation (a new server has no snapshots to invalidate).
//
// The file must be in the export's order — entities by urn, each with all its rows together — so
// that one entity's rows are in memory at a time. Ghost nodes (endpoints no record describes) are
// only known at the end: the endpoints go to a candidates file, and `ghostUrnLines` lists what is
// left of them once the described urns are taken away (tools/offline-import.ts does that with
// sort(1) and comm(1), in constant memory).
import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import { badRequest } from '../../model/errors.ts';
import { entityTypeSpec, keyAspectNameOf } from '../../model/entity-type-spec.ts';
import { searchAspectsOf, searchFieldsOf, urnFields } from '../../model/search-fields.ts';
import { parseUrn, type Urn } from '../../model/urn.ts';
import type { DerivedEdge } from '../../model/relationships.ts';
import { rowKey } from '../../store/rows.ts';
import type { BulkCsvWriter } from '../../store/bulk-csv.ts';
import { derivedEdgesOfBackupRow } from './import.ts';
import { HEADERS, importItemOf, type BackupRow } from './format.ts';
import type { RawRecord } from './json-array.ts';

export interface OfflineLoadProgress {
  records: number;
  entities: number;
}

export interface OfflineLoadFiles {
  /** Every described urn, one JSON string per line, in file order. */
  describedUrns: string;
  /** Every edge endpoint other than its owner, one JSON string per line, with repeats. */
  endpointUrns: string;
}

async function writeLine(s: WriteStream, text: string): Promise<void> {
  if (!s.write(`${text}\n`)) await once(s, 'drain');
}

interface Group {
  urn: Urn;
  /** Rows by key, in file order; a key written twice keeps the later record (as the online import). */
  rows: Map<string, { row: BackupRow; index: number }>;
}

/**
 * Phase 1: reads the records (an export, in its order) and writes the entities, aspect rows and
 * derived edges into `writer`, plus the two urn lists ghost nodes are computed from. A record that
 * is not a backup row, a row that cannot be derived, or an entity whose rows are not together stops
 * it with the record's index.
 */
export async function writeOfflineLoadFiles(
  records: AsyncIterable<RawRecord>,
  writer: BulkCsvWriter,
  onProgress?: (p: OfflineLoadProgress) => void,
): Promise<OfflineLoadFiles & OfflineLoadProgress> {
  const files = { describedUrns: join(writer.dir, 'described-urns.txt'), endpointUrns: join(writer.dir, 'endpoint-urns.txt') };
  const described = createWriteStream(files.describedUrns);
  const endpoints = createWriteStream(files.endpointUrns);
  const progress: OfflineLoadProgress = { records: 0, entities: 0 };

  const flush = async (g: Group) => {
    const aspects = new Map<string, unknown>();
    const searched = new Set(searchAspectsOf(g.urn.entityType));
    let exists = false;
    const edges = new Map<string, DerivedEdge>();
    for (const [key, { row, index }] of g.rows) {
      await writer.aspect({ key, ...row });
      if (row.version !== 0) continue;
      if (row.name === keyAspectNameOf(g.urn.entityType)) exists = true;
      const { value, edges: derived } = derivedEdgesOfBackupRow(row, index);
      if (searched.has(row.name)) aspects.set(row.name, value);
      for (const e of derived) edges.set(e.key, e);
    }
    await writer.entity(searchFieldsOf(g.urn, { exists, aspects }), g.urn.entityType, entityTypeSpec(g.urn.entityType).label);
    await writeLine(described, JSON.stringify(g.urn.text));
    for (const e of edges.values()) {
      await writer.edge(e);
      for (const end of [e.source, e.destination]) if (end !== g.urn.text) await writeLine(endpoints, JSON.stringify(end));
    }
    progress.entities++;
  };

  let group: Group | null = null;
  for await (const r of records) {
    const item = importItemOf(r.index, r.value);
    if (item.kind !== 'row') {
      throw badRequest(
        `record ${r.index}: not a row of this catalog's export (no ${HEADERS.version} header); the offline load reads ` +
          'files written by npm run export — load other files with the online import (without --offline)',
      );
    }
    const urn = item.urn.text;
    if (group?.urn.text !== urn) {
      if (group) {
        if (urn < group.urn.text) {
          throw badRequest(
            `record ${r.index}: ${urn} comes after ${group.urn.text}; the offline load needs the export's order ` +
              '(entities by urn, each with its rows together) — load other files with the online import (without --offline)',
          );
        }
        await flush(group);
      }
      group = { urn: item.urn, rows: new Map() };
    }
    const key = rowKey(urn, item.row.name, item.row.version);
    group.rows.delete(key);
    group.rows.set(key, { row: item.row, index: r.index });
    progress.records = r.index + 1;
    if (progress.records % 10_000 === 0) onProgress?.({ ...progress });
  }
  if (group) await flush(group);
  described.end();
  endpoints.end();
  await Promise.all([once(described, 'finish'), once(endpoints, 'finish')]);
  onProgress?.({ ...progress });
  return { ...files, ...progress };
}

/**
 * Phase 2: ghost nodes for the endpoint urns that no record describes (one JSON string per line,
 * each once), with the fields entities/merge-nodes gives a ghost.
 */
export async function writeGhostNodes(lines: AsyncIterable<string>, writer: BulkCsvWriter): Promise<number> {
  let n = 0;
  for await (const line of lines) {
    if (!line) continue;
    const u = parseUrn(JSON.parse(line) as string);
    await writer.entity(
      { ...urnFields(u), exists: false, removed: false, description: null, qualifiedName: null, typeNames: null },
      u.entityType,
      entityTypeSpec(u.entityType).label,
      true,
    );
    n++;
  }
  return n;
}
