// The offline first load (tools/offline-import.ts) against a real Neo4j home: an export of a
// namespace of the shared test catalog is loaded by neo4j-admin into a new database, and the result
// must be the graph the write path built — every row byte for byte, every entity node's labels and
// properties, every relationship's properties — with the lineage answers, no drift for
// restoreIndices, and a re-export equal to the file. Then what it refuses: a file that is not an
// export (a DataHub proposal), rows out of the export's order, a database already there.
import { mkdtempSync, readFileSync, rmSync, writeFileSync, createWriteStream, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { writeAspects } from '../../catalog/src/write/aspect-writer.ts';
import { createStore, type Store } from '../../catalog/src/store/store.ts';
import { SCHEMA_VERSION } from '../../catalog/src/store/schema-version.ts';
import { prepareExport } from '../../catalog/src/operations/backup/export.ts';
import { restoreIndices } from '../../catalog/src/operations/restore/restore-indices.ts';
import { hasDrift } from '../../catalog/src/operations/restore/restore-report.ts';
import { searchLineage, type LineageQuery } from '../../catalog/src/read/lineage/service.ts';
import { freePort, startNeo4j, type RunningNeo4j } from '../../tools/neo4j/neo4j-server.ts';
import { databaseDirOf, offlineImport, type OfflineImportOptions } from '../../tools/offline-import.ts';
import { testStore, namespace } from '../support/context.ts';
import { cypher, probeAnswers, sortedJson, T0, upsert } from './support.ts';

const SLOW = 300_000;
const ns = namespace('ol');
const P = ns.platform;
const ACTOR = 'urn:li:corpuser:offline-test';
const tmp = mkdtempSync(join(tmpdir(), 'lineage-offline-test-'));
const home = join(tmp, 'neo4j');
const file = join(tmp, 'export.json.gz');
// Small memory: the test shares the machine with other suites' servers.
const memory: Pick<OfflineImportOptions, 'adminMemory' | 'serverMemory'> = {
  adminMemory: { heap: '256m', offHeap: '256m' },
  serverMemory: { heap: '512m', pageCache: '128m' },
};

let source: Store;
let loaded: Store;
let server: RunningNeo4j;

/** The namespace's graph: every node with its labels and properties, every relationship with its. */
async function graphOf(store: Store): Promise<{ nodes: string[]; relationships: string[] }> {
  const nodes = await cypher<{ l: string[]; p: Record<string, unknown> }>(
    store,
    `MATCH (n) WHERE (n:Entity OR n:Aspect) AND n.urn CONTAINS $p RETURN labels(n) AS l, properties(n) AS p`,
    { p: P },
  );
  const relationships = await cypher<{ s: string; t: string; d: string; p: Record<string, unknown> }>(
    store,
    `MATCH (x:Entity)-[r]->(y) WHERE x.urn CONTAINS $p OR y.urn CONTAINS $p
     RETURN x.urn AS s, type(r) AS t, coalesce(y.key, y.urn) AS d, properties(r) AS p`,
    { p: P },
  );
  return {
    nodes: nodes.map((n) => `${[...n.l].sort().join(':')} ${sortedJson(n.p)}`).sort(),
    relationships: relationships.map((r) => `${r.s} -${r.t}-> ${r.d} ${sortedJson(r.p)}`).sort(),
  };
}

const ds = ['a', 'b', 'c', 'd'].map((n) => ns.dataset(n));
const never = ns.dataset('never_ingested');
const flow = ns.flow('flow');
const job = ns.job(flow, 'job');
const chart = ns.chart('chart');
const upstreams = (...urns: string[]) => ({
  upstreams: urns.map((u) => ({ dataset: u, type: 'TRANSFORMED', auditStamp: { time: T0, actor: ACTOR } })),
});

async function seed(): Promise<void> {
  await writeAspects(
    source,
    [
      upsert(ds[0]!, 'datasetProperties', {
        name: 'orders, "raw"',
        description: 'line one\nline two, with "quotes" and \\ back\\slashes — ünïcödé 🚀',
      }),
      upsert(ds[1]!, 'datasetProperties', { name: 'orders_clean', qualifiedName: 'db.schema.orders_clean' }),
      upsert(ds[1]!, 'subTypes', { typeNames: ['View', 'dbt model'] }),
      upsert(ds[2]!, 'status', { removed: true }),
      upsert(ds[3]!, 'datasetProperties', { name: '', description: '' }),
      upsert(flow, 'dataFlowInfo', { name: 'flow' }),
      upsert(job, 'dataJobInfo', { name: 'job', type: 'COMMAND' }),
      upsert(chart, 'chartInfo', {
        title: 'chart',
        description: 'c',
        lastModified: { created: { time: T0, actor: ACTOR }, lastModified: { time: T0, actor: ACTOR } },
        inputs: [{ string: ds[1]! }],
      }),
    ],
    { actor: ACTOR, existenceMode: 'relaxed', now: T0 },
  );
  await writeAspects(
    source,
    [
      upsert(ds[1]!, 'upstreamLineage', {
        ...upstreams(ds[0]!, never),
        fineGrainedLineages: [
          { upstreamType: 'FIELD_SET', downstreamType: 'FIELD', upstreams: [ns.field(ds[0]!, 'x')], downstreams: [ns.field(ds[1]!, 'y')] },
        ],
      }),
      upsert(job, 'dataJobInputOutput', { inputDatasets: [ds[1]!], outputDatasets: [ds[2]!] }),
      upsert(ds[3]!, 'upstreamLineage', upstreams(ds[2]!)),
      upsert(ds[0]!, 'globalTags', { tags: [{ tag: 'urn:li:tag:pii' }] }),
      upsert(ds[0]!, 'ownership', { owners: [{ owner: ns.user('ann'), type: 'DATAOWNER' }], lastModified: { time: T0, actor: ACTOR } }),
    ],
    { actor: ACTOR, existenceMode: 'relaxed', now: T0 + 1 },
  );
  // Versions: archived rows travel too.
  for (let v = 1; v <= 2; v++) {
    await writeAspects(source, [upsert(ds[0]!, 'globalTags', { tags: [{ tag: `urn:li:tag:v${v}` }] }, T0 + 10 * v)], {
      actor: ACTOR,
      existenceMode: 'relaxed',
      now: T0 + 10 * v,
    });
  }
}

const PROBES: LineageQuery[] = [
  ...[...ds, never, job].flatMap((u) => [
    { urn: u, direction: 'DOWNSTREAM' as const },
    { urn: u, direction: 'UPSTREAM' as const },
  ]),
  { urn: ns.field(ds[0]!, 'x'), direction: 'DOWNSTREAM' },
];

const probe = (store: Store) => probeAnswers(store, PROBES);

async function exportText(store: Store): Promise<string> {
  const exp = await prepareExport(store, { urnLike: `%${P}%`, skewMarginMs: 200 });
  let text = '';
  for await (const chunk of exp.chunks()) text += chunk;
  return text;
}

const stripAsOf = (t: string) => t.replace(/"lineageCatalog\.asOf":"\d+"/g, '');

beforeAll(async () => {
  source = testStore();
  await seed();
  const exp = await prepareExport(source, { urnLike: `%${P}%`, skewMarginMs: 200 });
  const { createGzip } = await import('node:zlib');
  await pipeline(Readable.from(exp.chunks()), createGzip(), createWriteStream(file));
}, SLOW);

afterAll(async () => {
  await loaded?.close();
  await server?.stop();
  await source?.close();
  rmSync(tmp, { recursive: true, force: true });
}, SLOW);

describe('an export loaded offline', () => {
  test(
    'loads: counts of what was written',
    async () => {
      const r = await offlineImport({ file, home, overwrite: false, ...memory });
      // 4 datasets, flow, job, chart: 7 described entities; the never-ingested dataset, the two
      // columns, the tag and the owner are ghosts.
      expect(r).toMatchObject({ entities: 7, ghosts: 5 });
      expect(r.aspects).toBe(r.records);
      expect(r.lineage).toBeGreaterThanOrEqual(6);
      server = await startNeo4j({ home, boltPort: await freePort(), heap: '512m', pageCache: '128m' });
      loaded = createStore({ uri: server.uri, database: 'neo4j' });
    },
    SLOW,
  );

  test(
    'holds the graph the write path built: every node and relationship, property by property',
    async () => {
      const [expected, actual] = [await graphOf(source), await graphOf(loaded)];
      expect(actual.nodes.length).toBeGreaterThan(20);
      expect(actual.relationships.length).toBeGreaterThan(20);
      expect(actual).toEqual(expected);
    },
    SLOW,
  );

  test(
    'answers lineage as the source does; restoreIndices finds no drift; the schema is current',
    async () => {
      expect(await probe(loaded)).toEqual(await probe(source));
      expect(hasDrift(await restoreIndices(loaded, { dryRun: true, clean: true }))).toBe(false);
      expect(await loaded.applySchema()).toEqual({ version: SCHEMA_VERSION, current: SCHEMA_VERSION });
    },
    SLOW,
  );

  test(
    'exports again to the same file',
    async () => {
      const { gunzipSync } = await import('node:zlib');
      expect(stripAsOf(await exportText(loaded))).toBe(stripAsOf(gunzipSync(readFileSync(file)).toString('utf8')));
    },
    SLOW,
  );

  test(
    'refuses to replace a database without --overwrite, and replaces it with it',
    async () => {
      await loaded.close();
      await server.stop();
      await expect(offlineImport({ file, home, overwrite: false, ...memory })).rejects.toThrow(/holds a database already.*--overwrite/s);
      const r = await offlineImport({ file, home, overwrite: true, ...memory });
      expect(r.entities).toBe(7);
      server = await startNeo4j({ home, boltPort: await freePort(), heap: '512m', pageCache: '128m' });
      loaded = createStore({ uri: server.uri, database: 'neo4j' });
      expect(await graphOf(loaded)).toEqual(await graphOf(source));
      // and it is a catalog like any other: the write path writes into it.
      await writeAspects(loaded, [upsert(ds[3]!, 'upstreamLineage', upstreams(ds[2]!, ds[0]!), T0 + 100)], {
        actor: ACTOR,
        existenceMode: 'strict',
      });
      const down = await searchLineage(
        loaded,
        { urn: ds[0]!, direction: 'DOWNSTREAM', orFilters: [{ and: [{ field: 'degree', values: ['1'] }] }] },
        { start: 0, count: 10 },
        { maxHops: 10, maxResults: 100, deadlineMs: 30_000 },
      );
      expect(down.hits.map((h) => h.urn)).toContain(ds[3]!);
    },
    SLOW,
  );
});

describe('what the offline load refuses, before anything is loaded', () => {
  const fresh = () => join(mkdtempSync(join(tmp, 'bad-')), 'neo4j');
  let records: Array<Record<string, unknown>>;
  beforeAll(async () => {
    const { gunzipSync } = await import('node:zlib');
    records = JSON.parse(gunzipSync(readFileSync(file)).toString('utf8')) as Array<Record<string, unknown>>;
  });

  test('the CLI: options of the online import are refused with --offline, naming them', () => {
    const r = spawnSync(process.execPath, [join(process.cwd(), 'tools/import.ts'), file, '--offline', '--home', fresh(), '--resume'], {
      encoding: 'utf8',
    });
    expect({ status: r.status, stderr: r.stderr }).toMatchObject({
      status: 2,
      stderr: expect.stringContaining('--resume belongs to the online import'),
    });
  });

  test.each([
    [
      'a proposal without the backup headers (a DataHub file)',
      (r: Array<Record<string, unknown>>) => [...r.slice(0, 3), { ...r[0], headers: undefined }],
      /^record 3: not a row of this catalog's export .*online import/,
    ],
    [
      'an entity whose rows are not together',
      (r: Array<Record<string, unknown>>) => [...r.slice(1), r[0]],
      /^record \d+: urn:\S+ comes after urn:\S+; the offline load needs the export's order/,
    ],
  ])(
    '%s',
    async (_what, make, message) => {
      const bad = join(tmp, 'bad.json');
      const rows = make(records);
      writeFileSync(bad, JSON.stringify(rows));
      const target = fresh();
      await expect(offlineImport({ file: bad, home: target, overwrite: false, ...memory })).rejects.toMatchObject({
        message: expect.stringMatching(message),
      });
      expect(existsSync(databaseDirOf(target))).toBe(false);
    },
    SLOW,
  );
});
