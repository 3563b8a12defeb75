// The stored graph as neo4j-admin's CSV input (docs/operations.md §Offline first load): the same
// nodes, relationships and properties the write path's statements store (entities/merge-nodes,
// entities/set-search-fields, backup/put-rows, edges/merge), written as files that
// `neo4j-admin database import full` loads into an empty database. This file is the only place
// besides cypher/ that knows the graph's layout; a property added there must be added here, and
// the offline-import test compares both graphs property by property.
import { createWriteStream, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import { join } from 'node:path';
import type { DerivedEdge } from '../model/relationships.ts';
import type { SearchFields } from '../model/search-fields.ts';

/**
 * Separates a field's array items and a node's labels. Neo4j's default (`;`) can occur in a type
 * name; the unit separator cannot occur in an entity type label and is refused in a type name.
 */
const ARRAY_DELIMITER = '\u001f';

const ENTITY_HEADER =
  'urn:ID(Entity),entityType,exists:boolean,removed:boolean,platform,origin,name,qualifiedName,description,parentUrn,searchText,typeNames:string[],facetKey:long,:LABEL';

/** One input file per kind, each with its header line; `group` is neo4j-admin's --nodes/--relationships. */
const FILES = {
  entities: { group: 'nodes', header: ENTITY_HEADER },
  // Ghosts (endpoints no record describes) come after the entities in the import's input order.
  ghosts: { group: 'nodes', header: ENTITY_HEADER },
  aspects: {
    group: 'nodes',
    header: 'key:ID(Aspect),urn,name,version:long,maxVersion:long,value,systemMetadata,createdOn:long,createdBy,:LABEL',
  },
  hasAspect: { group: 'relationships', header: ':START_ID(Entity),:END_ID(Aspect),:TYPE' },
  edges: {
    group: 'relationships',
    header:
      ':START_ID(Entity),:END_ID(Entity),:TYPE,key,owner,aspect,createdOn:long,createdActor,updatedOn:long,updatedActor,properties,via,manual:boolean',
  },
  lineage: {
    group: 'relationships',
    header: ':START_ID(Entity),:END_ID(Entity),:TYPE,key,createdOn:long,type,owner,aspect,updatedOn:long,manual:boolean,via',
  },
} as const;
type FileKind = keyof typeof FILES;

type Field = string | number | boolean | null | readonly string[];

/** A string field always quoted (so "" stays an empty string); null is an empty, unquoted field. */
function field(v: Field): string {
  if (v === null) return '';
  if (typeof v === 'number') {
    if (!Number.isSafeInteger(v)) throw new Error(`bulk load: ${v} is not an integer property`);
    return String(v);
  }
  if (typeof v === 'boolean') return v ? 'true' : 'false';
  if (typeof v === 'string') return `"${v.replaceAll('"', '""')}"`;
  for (const item of v) {
    if (item.includes(ARRAY_DELIMITER)) throw new Error(`bulk load: an array item contains U+001F: ${JSON.stringify(item)}`);
  }
  return field(v.join(ARRAY_DELIMITER));
}

export interface BulkLoadStats {
  entities: number;
  ghosts: number;
  aspects: number;
  edges: number;
  lineage: number;
  /** The longest line written, in bytes: neo4j-admin's read buffer must hold one value. */
  longestLine: number;
  /** Whether some field holds a line break (neo4j-admin then needs --multiline-fields). */
  multiline: boolean;
}

/** Writes the input files of one offline load into a directory. Call `close()` before importing. */
/** One stored aspect row's properties (the store's :Aspect node), as the backup moves them. */
export interface StoredAspectRow {
  /** The :Aspect node's unique key. */
  key: string;
  urn: string;
  name: string;
  version: number;
  /** Set on the latest row (version 0) only, as the write path stores it. */
  maxVersion: number | null;
  /** JSON text, byte for byte. */
  value: string;
  /** JSON text; written back as JSON.stringify of the record's object (what the write path stored). */
  systemMetadata: string;
  createdOn: number | null;
  createdBy: string | null;
}

export class BulkCsvWriter {
  readonly stats: BulkLoadStats = { entities: 0, ghosts: 0, aspects: 0, edges: 0, lineage: 0, longestLine: 0, multiline: false };
  private readonly streams = new Map<FileKind, WriteStream>();
  readonly dir: string;

  constructor(dir: string) {
    this.dir = dir;
    for (const [kind, f] of Object.entries(FILES) as Array<[FileKind, (typeof FILES)[FileKind]]>) {
      const s = createWriteStream(this.path(kind));
      s.write(`${f.header}\n`);
      this.streams.set(kind, s);
    }
  }

  path(kind: FileKind): string {
    return join(this.dir, `${kind}.csv`);
  }

  private async line(kind: FileKind, fields: readonly Field[]): Promise<void> {
    const text = `${fields.map(field).join(',')}\n`;
    const bytes = Buffer.byteLength(text);
    if (bytes > this.stats.longestLine) this.stats.longestLine = bytes;
    if (!this.stats.multiline && /[\r\n]/.test(text.slice(0, -1))) this.stats.multiline = true;
    const s = this.streams.get(kind)!;
    if (!s.write(text)) await once(s, 'drain');
  }

  /** An entity node with its search fields, as set-search-fields leaves it (lock-entities' entityType). */
  async entity(fields: SearchFields, entityType: string, label: string, ghost = false): Promise<void> {
    if (ghost) this.stats.ghosts++;
    else this.stats.entities++;
    await this.line(ghost ? 'ghosts' : 'entities', [
      fields.urn,
      entityType,
      fields.exists,
      fields.removed,
      fields.platform,
      fields.origin,
      fields.name,
      fields.qualifiedName,
      fields.description,
      fields.parentUrn,
      fields.searchText,
      fields.typeNames,
      fields.facetKey,
      ['Entity', label],
    ]);
  }

  /** An aspect row and its HAS_ASPECT relationship, as backup/put-rows stores them. */
  async aspect(row: StoredAspectRow): Promise<void> {
    this.stats.aspects++;
    await this.line('aspects', [
      row.key,
      row.urn,
      row.name,
      row.version,
      row.maxVersion,
      row.value,
      row.systemMetadata,
      row.createdOn,
      row.createdBy,
      ['Aspect'],
    ]);
    await this.line('hasAspect', [row.urn, row.key, 'HAS_ASPECT']);
  }

  /** A typed edge and, for lineage, its :LINEAGE twin, as edges/merge stores them. */
  async edge(e: DerivedEdge): Promise<void> {
    this.stats.edges++;
    await this.line('edges', [
      e.source,
      e.destination,
      e.type,
      e.key,
      e.owner,
      e.aspect,
      e.createdOn,
      e.createdActor,
      e.updatedOn,
      e.updatedActor,
      e.properties === null ? null : JSON.stringify(e.properties),
      e.via,
      e.manual,
    ]);
    if (e.lineage === null) return;
    this.stats.lineage++;
    await this.line('lineage', [
      e.lineage.upstream,
      e.lineage.downstream,
      'LINEAGE',
      e.key,
      e.createdOn,
      e.type,
      e.owner,
      e.aspect,
      e.updatedOn,
      e.manual,
      e.via,
    ]);
  }

  async close(): Promise<BulkLoadStats> {
    await Promise.all(
      [...this.streams.values()].map(async (s) => {
        s.end();
        await once(s, 'finish');
      }),
    );
    return this.stats;
  }

  /** The arguments of `neo4j-admin database import full <database>` for these files. */
  importArguments(): string[] {
    const buffer = Math.max(4 << 20, 2 ** Math.ceil(Math.log2(this.stats.longestLine * 2)));
    return [
      ...(Object.entries(FILES) as Array<[FileKind, (typeof FILES)[FileKind]]>).map(([kind, f]) => `--${f.group}=${this.path(kind)}`),
      `--array-delimiter=${ARRAY_DELIMITER}`,
      `--multiline-fields=${this.stats.multiline}`,
      `--read-buffer-size=${buffer}`,
      // Every id is unique and every endpoint has a node: any bad entry is a bug, not data to skip.
      '--bad-tolerance=0',
      '--skip-bad-relationships=false',
      '--skip-duplicate-nodes=false',
      `--report-file=${join(this.dir, 'import.report')}`,
    ];
  }
}
