// The backup drill on two real Neo4j servers: export a namespace of the shared test catalog while a
// writer keeps writing, import the file into a second, empty catalog, and compare — every stored row
// byte for byte, the derived edges and search fields, and a fixed set of lineage answers. Then the
// bad inputs (truncated, corrupt, misplaced aspects), resuming from a checkpoint, DataHub's own
// record shapes, and migrating a store written with the schema from before versions.
import { createReadStream, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGunzip, createGzip } from 'node:zlib';
import { createWriteStream } from 'node:fs';
import { parseUrn } from '../../catalog/src/model/urn.ts';
import { writeAspects, type AspectChange } from '../../catalog/src/write/aspect-writer.ts';
import { createStore, type Store } from '../../catalog/src/store/store.ts';
import { splitStatements } from '../../catalog/src/store/cypher.ts';
import { SCHEMA_VERSION } from '../../catalog/src/store/schema-version.ts';
import { prepareExport, rowsAsOf } from '../../catalog/src/operations/backup/export.ts';
import { importRecords, type ImportProgress } from '../../catalog/src/operations/backup/import.ts';
import { readJsonArray } from '../../catalog/src/operations/backup/json-array.ts';
import { HEADERS } from '../../catalog/src/operations/backup/format.ts';
import { migrateStore } from '../../catalog/src/operations/backup/migrate.ts';
import { readEvents } from '../../catalog/src/store/change-log.ts';
import { restoreIndices } from '../../catalog/src/operations/restore/restore-indices.ts';
import { hasDrift } from '../../catalog/src/operations/restore/restore-report.ts';
import { searchLineage, type LineageQuery } from '../../catalog/src/read/lineage/service.ts';
import { freePort, startNeo4j, type RunningNeo4j } from '../../tools/neo4j/neo4j-server.ts';
import { testStore, namespace } from '../support/context.ts';
import { cypher, probeAnswers, sortedJson, T0, upsert } from './support.ts';

// Two servers and a write load: slower than the default test timeout on a shared machine.
const SLOW = 240_000;

const ns = namespace('bk');
const P = ns.platform;
const SCOPE = `%${P}%`;
const ACTOR = 'urn:li:corpuser:backup-test';
const tmp = mkdtempSync(join(tmpdir(), 'lineage-backup-test-'));

let source: Store;
let target: Store;
let targetServer: RunningNeo4j;

interface Row {
  urn: string;
  name: string;
  version: number;
  maxVersion: number | null;
  value: string;
  systemMetadata: string;
  createdOn: number | null;
  createdBy: string | null;
}

/** Every stored row of some urns, all properties that are the row. */
async function rowsOf(store: Store, urnLike: RegExp | null = null): Promise<Row[]> {
  const rows = await cypher<Row>(
    store,
    `MATCH (e:Entity)-[:HAS_ASPECT]->(a:Aspect) WHERE e.urn CONTAINS $p
    RETURN a.urn AS urn, a.name AS name, a.version AS version, a.maxVersion AS maxVersion, a.value AS value,
           a.systemMetadata AS systemMetadata, a.createdOn AS createdOn, a.createdBy AS createdBy`,
    { p: P },
  );
  return rows
    .filter((r) => !urnLike || urnLike.test(r.urn))
    .sort((a, b) => `${a.urn} ${a.name} ${a.version}`.localeCompare(`${b.urn} ${b.name} ${b.version}`));
}

/** Derived state of the namespace: every relationship but HAS_ASPECT, and every node's search fields. */
async function derivedOf(store: Store): Promise<{ edges: string[]; nodes: string[] }> {
  const edges = await cypher<{ s: string; t: string; d: string; p: Record<string, unknown> }>(
    store,
    `MATCH (x:Entity)-[r]->(y:Entity) WHERE type(r) <> 'HAS_ASPECT' AND (x.urn CONTAINS $p OR y.urn CONTAINS $p)
     RETURN x.urn AS s, type(r) AS t, y.urn AS d, properties(r) AS p`,
    { p: P },
  );
  const nodes = await cypher<{ p: Record<string, unknown>; l: string[] }>(
    store,
    'MATCH (n:Entity) WHERE n.urn CONTAINS $p RETURN properties(n) AS p, labels(n) AS l',
    { p: P },
  );
  return {
    edges: edges.map((r) => `${r.s} -${r.t}-> ${r.d} ${sortedJson(r.p)}`).sort(),
    nodes: nodes.map((n) => `${[...n.l].sort().join(':')} ${sortedJson(n.p)}`).sort(),
  };
}

async function wipe(store: Store): Promise<void> {
  await cypher(store, 'MATCH (n) DETACH DELETE n');
}

async function exportToFile(store: Store, file: string, options: Parameters<typeof prepareExport>[1] = {}) {
  const exp = await prepareExport(store, { urnLike: SCOPE, skewMarginMs: 200, ...options });
  const source = Readable.from(exp.chunks());
  if (file.endsWith('.gz')) await pipeline(source, createGzip(), createWriteStream(file));
  else await pipeline(source, createWriteStream(file));
  return exp;
}

function fileRecords(file: string) {
  const raw = createReadStream(file);
  return readJsonArray(file.endsWith('.gz') ? raw.pipe(createGunzip()) : raw);
}

async function importFile(store: Store, file: string, options: Partial<Parameters<typeof importRecords>[2]> = {}) {
  const raw = createReadStream(file);
  const text = file.endsWith('.gz') ? raw.pipe(createGunzip()) : raw;
  return importRecords(store, readJsonArray(text, { skip: options.from?.records ?? 0 }), { actor: ACTOR, ...options });
}

// The static part of the catalog: a lineage graph with column lineage, a job, tags, and aspects
// with several versions.
const ds = ['a', 'b', 'c', 'd', 'e', 'f'].map((n) => ns.dataset(n));
const flow = ns.flow('flow');
const job = ns.job(flow, 'job');
const loadUrns = [0, 1, 2, 3].map((i) => ns.dataset(`load${i}`));
const upstreams = (...urns: string[]) => ({
  upstreams: urns.map((u) => ({ dataset: u, type: 'TRANSFORMED', auditStamp: { time: T0, actor: ACTOR } })),
});

async function seed(): Promise<void> {
  const changes: AspectChange[] = [
    ...ds.map((u, i) => upsert(u, 'datasetProperties', { name: `table ${i}`, description: `the ${i}th table` })),
    ...loadUrns.map((u) => upsert(u, 'datasetProperties', { name: u.slice(-10), description: 'before the load' })),
    upsert(flow, 'dataFlowInfo', { name: 'flow' }),
    upsert(job, 'dataJobInfo', { name: 'job', type: 'COMMAND' }),
  ];
  await writeAspects(source, changes, { actor: ACTOR, existenceMode: 'relaxed', now: T0 });
  await writeAspects(
    source,
    [
      upsert(ds[1]!, 'upstreamLineage', {
        ...upstreams(ds[0]!),
        fineGrainedLineages: [
          { upstreamType: 'FIELD_SET', downstreamType: 'FIELD', upstreams: [ns.field(ds[0]!, 'x')], downstreams: [ns.field(ds[1]!, 'y')] },
        ],
      }),
      upsert(ds[2]!, 'upstreamLineage', upstreams(ds[1]!)),
      upsert(job, 'dataJobInputOutput', { inputDatasets: [ds[2]!], outputDatasets: [ds[3]!] }),
      upsert(ds[4]!, 'upstreamLineage', upstreams(ds[3]!, ds[0]!)),
      ...loadUrns.map((u) => upsert(u, 'upstreamLineage', upstreams(ds[4]!))),
      upsert(ds[5]!, 'globalTags', { tags: [{ tag: 'urn:li:tag:pii' }] }),
    ],
    { actor: ACTOR, existenceMode: 'relaxed', now: T0 + 1 },
  );
  // Versions: ds[0]'s properties three times, ds[4]'s lineage twice.
  for (let v = 1; v <= 2; v++) {
    await writeAspects(source, [upsert(ds[0]!, 'datasetProperties', { name: 'table 0', description: `revision ${v}` }, T0 + 10 * v)], {
      actor: ACTOR,
      existenceMode: 'relaxed',
      now: T0 + 10 * v,
    });
  }
  await writeAspects(source, [upsert(ds[4]!, 'upstreamLineage', upstreams(ds[3]!), T0 + 50)], {
    actor: ACTOR,
    existenceMode: 'relaxed',
    now: T0 + 50,
  });
}

const PROBES: LineageQuery[] = [
  ...ds.map((u) => ({ urn: u, direction: 'DOWNSTREAM' as const })),
  ...ds.map((u) => ({ urn: u, direction: 'UPSTREAM' as const })),
  { urn: ds[0]!, direction: 'DOWNSTREAM', orFilters: [{ and: [{ field: 'degree', values: ['1'] }] }] },
  { urn: loadUrns[0]!, direction: 'UPSTREAM' },
];

const probe = (store: Store) => probeAnswers(store, PROBES);
const limits = { maxHops: 1000, maxResults: 100_000, deadlineMs: 30_000 };

beforeAll(async () => {
  source = testStore();
  const home = join(tmp, 'target-neo4j');
  targetServer = await startNeo4j({ home, boltPort: await freePort(), heap: '512m', pageCache: '128m' });
  target = createStore({ uri: targetServer.uri, database: 'neo4j' });
  await target.applySchema();
  await seed();
}, SLOW);

afterAll(async () => {
  await target?.close();
  await source?.close();
  await targetServer?.stop();
  rmSync(tmp, { recursive: true, force: true });
}, SLOW);

describe('round trip under write load', () => {
  const file = join(tmp, 'export.json.gz');
  type Step = { i: number; urn: string; value: string; startedAt: number; committedAt: number };
  const steps: Step[] = [];
  let asOf = 0;
  let exportDone = 0;
  let exportStarted = 0;

  test(
    'export while a writer keeps writing, then import into an empty catalog',
    async () => {
      let stop = false;
      // One writer, one write at a time, round-robin over the load entities: the states the catalog
      // went through are the prefixes of this sequence.
      const load = (async () => {
        for (let i = 0; !stop; i++) {
          const urn = loadUrns[i % loadUrns.length]!;
          const value = { name: urn.slice(-10), description: `load step ${i}` };
          const startedAt = Date.now();
          await writeAspects(source, [upsert(urn, 'datasetProperties', value, T0 + 1000 + i)], { actor: ACTOR, existenceMode: 'relaxed' });
          steps.push({ i, urn, value: JSON.stringify(value), startedAt, committedAt: Date.now() });
          await new Promise((r) => setTimeout(r, 5));
        }
      })();
      while (steps.length < 5) await new Promise((r) => setTimeout(r, 20));
      exportStarted = Date.now();
      const exp = await exportToFile(source, file, { pageSize: 3 });
      exportDone = Date.now();
      asOf = exp.asOf;
      while (steps.length && steps.at(-1)!.startedAt <= exportDone) await new Promise((r) => setTimeout(r, 20));
      stop = true;
      await load;

      const progress: ImportProgress[] = [];
      const result = await importFile(target, file, {
        batchSize: 7,
        onProgress: (p) => {
          progress.push(p);
        },
      });
      expect(result.phase).toBe('done');
      // Each batch derives its own rows as it commits: no restoreIndices pass after the records.
      expect(result.needsDerive).toBe(false);
      expect(progress.slice(0, -1).every((p) => p.phase === 'records')).toBe(true);
    },
    SLOW,
  );

  test(
    'the file is the state after one prefix of the writes: every write before the export began, none after it ended',
    async () => {
      const latest = new Map<string, string>();
      const history = new Map<string, string[]>();
      for await (const r of fileRecords(file)) {
        const v = r.value as { entityUrn: string; aspectName: string; aspect: { value: string }; headers: Record<string, string> };
        if (!loadUrns.includes(v.entityUrn) || v.aspectName !== 'datasetProperties') continue;
        expect(v.headers[HEADERS.asOf]).toBe(String(asOf));
        const h = history.get(v.entityUrn) ?? [];
        h.push(v.aspect.value);
        history.set(v.entityUrn, h);
        if (v.headers[HEADERS.version] === '0') latest.set(v.entityUrn, v.aspect.value);
      }
      const expectedAfter = (k: number) => {
        const h = new Map(loadUrns.map((u) => [u, [JSON.stringify({ name: u.slice(-10), description: 'before the load' })]]));
        for (const s of steps.slice(0, k)) h.get(s.urn)!.push(s.value);
        return h;
      };
      const prefixes = [];
      for (let k = 0; k <= steps.length; k++) {
        const h = expectedAfter(k);
        if (loadUrns.every((u) => JSON.stringify(h.get(u)) === JSON.stringify(history.get(u)) && h.get(u)!.at(-1) === latest.get(u)))
          prefixes.push(k);
      }
      expect(prefixes).toHaveLength(1);
      const k = prefixes[0]!;
      expect(k).toBeGreaterThanOrEqual(steps.filter((s) => s.committedAt < exportStarted).length);
      expect(k).toBeLessThanOrEqual(steps.filter((s) => s.startedAt <= exportDone).length);
      // and the writer did write while the export ran, so the moment was tested
      expect(steps.filter((s) => s.startedAt > asOf && s.startedAt < exportDone).length).toBeGreaterThan(0);
    },
    SLOW,
  );

  test(
    'every row the file holds is stored in the new catalog byte for byte',
    async () => {
      const fromFile: Row[] = [];
      for await (const r of fileRecords(file)) {
        const v = r.value as {
          entityUrn: string;
          aspectName: string;
          aspect: { value: string };
          systemMetadata: unknown;
          headers: Record<string, string>;
        };
        const version = Number(v.headers[HEADERS.version]);
        fromFile.push({
          urn: v.entityUrn,
          name: v.aspectName,
          version,
          maxVersion: version === 0 ? Number(v.headers[HEADERS.maxVersion]) : null,
          value: v.aspect.value,
          systemMetadata: JSON.stringify(v.systemMetadata),
          createdOn: Number(v.headers[HEADERS.createdOn]),
          createdBy: v.headers[HEADERS.createdBy] ?? null,
        });
      }
      fromFile.sort((a, b) => `${a.urn} ${a.name} ${a.version}`.localeCompare(`${b.urn} ${b.name} ${b.version}`));
      expect(await rowsOf(target)).toEqual(fromFile);
    },
    SLOW,
  );

  test(
    'rows the writer did not touch are byte-equal to the source; derived state and lineage answers are identical',
    async () => {
      const untouched = (r: { urn: string; name: string }) => !(loadUrns.includes(r.urn) && r.name === 'datasetProperties');
      const src = (await rowsOf(source)).filter(untouched);
      expect(src.some((r) => r.version > 0)).toBe(true);
      expect((await rowsOf(target)).filter(untouched)).toEqual(src);

      const strip = (d: { edges: string[]; nodes: string[] }) => ({
        edges: d.edges,
        // The load entities' descriptions moved on after the export; everything else must match.
        nodes: d.nodes.filter((n) => !loadUrns.some((u) => n.includes(JSON.stringify(u)))),
      });
      const [s, t] = [strip(await derivedOf(source)), strip(await derivedOf(target))];
      expect(t.edges.length).toBeGreaterThan(8);
      expect(t).toEqual(s);
      expect(await probe(target)).toEqual(await probe(source));
    },
    SLOW,
  );

  test(
    'importing the same file again changes nothing (idempotent)',
    async () => {
      const before = { rows: await rowsOf(target), derived: await derivedOf(target) };
      await importFile(target, file, { batchSize: 50 });
      expect({ rows: await rowsOf(target), derived: await derivedOf(target) }).toEqual(before);
    },
    SLOW,
  );
});

describe('bad input and resuming', () => {
  const file = join(tmp, 'plain.json');
  let text = '';

  beforeAll(async () => {
    await exportToFile(source, file);
    text = readFileSync(file, 'utf8');
  }, SLOW);

  test(
    'a truncated file: the batches before the cut are committed, the error names the record, --resume finishes it',
    async () => {
      await wipe(target);
      await target.applySchema();
      const cut = join(tmp, 'cut.json');
      writeFileSync(cut, text.slice(0, Math.floor(text.length * 0.6)));
      let last: ImportProgress | undefined;
      await expect(
        importFile(target, cut, {
          batchSize: 4,
          onProgress: (p) => {
            last = p;
          },
        }),
      ).rejects.toMatchObject({ kind: 'badRequest', message: expect.stringMatching(/^the file is truncated: it ends inside record \d+/) });
      expect(last!.phase).toBe('records');
      expect(last!.records % 4).toBe(0);
      const stored = await cypher<{ n: number }>(target, 'MATCH (a:Aspect) RETURN count(a) AS n');
      expect(stored[0]!.n).toBe(last!.records);
      // What was committed is complete: its edges and search fields already match its rows.
      const drift = await restoreIndices(target, { dryRun: true, clean: true });
      expect(drift.rowsScanned).toBeGreaterThan(0);
      expect(hasDrift(drift)).toBe(false);

      const result = await importFile(target, file, { batchSize: 4, from: last });
      expect(result.phase).toBe('done');
      const full = join(tmp, 'again.json');
      await exportToFile(target, full);
      const strip = (t: string) => t.replace(/"lineageCatalog\.asOf":"\d+"/g, '');
      expect(strip(readFileSync(full, 'utf8'))).toBe(strip(text));
    },
    SLOW,
  );

  test(
    'a corrupt record, a misplaced aspect, a bad header: named, and nothing of their batch is written',
    async () => {
      await wipe(target);
      await target.applySchema();
      const records = JSON.parse(text) as Array<Record<string, unknown>>;
      const cases: Array<[string, (r: Array<Record<string, unknown>>) => string, RegExp]> = [
        [
          'not JSON',
          (r) =>
            `[${r
              .slice(0, 5)
              .map((x) => JSON.stringify(x))
              .join(',')},{"entityUrn": nope}]`,
          /^record 5 \(character \d+\) is not valid JSON/,
        ],
        [
          'a dataset aspect on a chart',
          (r) =>
            JSON.stringify([...r.slice(0, 5), { ...r[0], entityType: 'chart', entityUrn: ns.chart('c'), aspectName: 'datasetProperties' }]),
          /^record 5: datasetProperties of urn:li:chart:/,
        ],
        [
          'a bad version header',
          (r) => JSON.stringify([...r.slice(0, 5), { ...r[0], headers: { [HEADERS.version]: 'one' } }]),
          /^record 5: header lineageCatalog\.version must be/,
        ],
        ['not an object', () => '[1]', /^record 0 at character 1: expected an object/],
        ['no array', () => '{}', /^not a JSON array of records/],
      ];
      for (const [what, make, message] of cases) {
        const f = join(tmp, 'bad.json');
        writeFileSync(f, make(records));
        await expect(importFile(target, f, { batchSize: 100 })).rejects.toMatchObject({
          kind: 'badRequest',
          message: expect.stringMatching(message),
        });
        const stored = await cypher<{ n: number }>(target, 'MATCH (a:Aspect) RETURN count(a) AS n');
        expect({ what, stored: stored[0]!.n }).toEqual({ what, stored: 0 });
      }
    },
    SLOW,
  );

  test(
    "DataHub's own shapes — simplified {json} proposals and pegasus2avro MCEs — go through the write path",
    async () => {
      await wipe(target);
      await target.applySchema();
      const x = ns.dataset('dh_x'),
        y = ns.dataset('dh_y');
      const f = join(tmp, 'datahub.json');
      writeFileSync(
        f,
        JSON.stringify(
          [
            {
              auditHeader: null,
              proposedSnapshot: {
                'com.linkedin.pegasus2avro.metadata.snapshot.DatasetSnapshot': {
                  urn: x,
                  aspects: [
                    {
                      'com.linkedin.pegasus2avro.dataset.DatasetProperties': {
                        name: 'x',
                        description: null,
                        customProperties: {},
                        tags: [],
                      },
                    },
                  ],
                },
              },
              proposedDelta: null,
              systemMetadata: null,
            },
            {
              entityType: 'dataset',
              entityUrn: y,
              changeType: 'UPSERT',
              aspectName: 'upstreamLineage',
              aspect: { json: upstreams(x) },
              systemMetadata: { lastObserved: T0, runId: 'file-sink' },
            },
          ],
          null,
          4,
        ),
      );
      const r = await importFile(target, f);
      expect(r).toMatchObject({ phase: 'done', records: 2, rows: 0, changes: 2 });
      const up = await searchLineage(target, { urn: y, direction: 'UPSTREAM' }, { start: 0, count: 10 }, limits);
      expect(up.hits.map((h) => h.urn)).toEqual([x]);
      const props = await cypher<{ v: string }>(
        target,
        'MATCH (a:Aspect {urn: $u, name: "datasetProperties", version: 0}) RETURN a.value AS v',
        { u: x },
      );
      expect(JSON.parse(props[0]!.v)).toEqual({ name: 'x', customProperties: {}, tags: [] });
    },
    SLOW,
  );

  test(
    'an entity type or aspect the registry does not model is imported as the write path takes it (generic); a modelled aspect on the wrong type is refused',
    async () => {
      await wipe(target);
      await target.applySchema();
      const generic = `urn:li:backupWidget:${P}_w1`;
      const f = join(tmp, 'generic.json');
      const record = (entityUrn: string, entityType: string, aspectName: string, json: unknown) => ({
        entityType,
        entityUrn,
        changeType: 'UPSERT',
        aspectName,
        aspect: { json },
        systemMetadata: { lastObserved: T0, runId: 'generic' },
      });
      writeFileSync(
        f,
        JSON.stringify([
          record(generic, 'backupWidget', 'widgetInfo', { colour: 'blue' }),
          record(ds[0]!, 'dataset', 'someFutureAspect', { x: 1 }),
        ]),
      );
      expect(await importFile(target, f)).toMatchObject({ phase: 'done', records: 2, changes: 2 });
      const stored = await cypher<{ u: string; n: string; v: string }>(
        target,
        'MATCH (a:Aspect {version: 0}) WHERE a.name IN ["widgetInfo", "someFutureAspect"] RETURN a.urn AS u, a.name AS n, a.value AS v ORDER BY n',
      );
      expect(stored).toEqual([
        { u: ds[0], n: 'someFutureAspect', v: '{"x":1}' },
        { u: generic, n: 'widgetInfo', v: '{"colour":"blue"}' },
      ]);
      writeFileSync(f, JSON.stringify([record(ds[0]!, 'dataset', 'chartInfo', { title: 't' })]));
      await expect(importFile(target, f)).rejects.toMatchObject({
        kind: 'badRequest',
        message: expect.stringMatching(/^record 0: chartInfo of urn:li:dataset:.*is not supported for entity type dataset/),
      });
    },
    SLOW,
  );

  test(
    'rowsAsOf rebuilds one aspect as of a moment, counting a row read twice once',
    () => {
      const row = (version: number, createdOn: number, value: string) => ({
        name: 'n',
        version,
        maxVersion: version === 0 ? 2 : null,
        value,
        systemMetadata: '{}',
        createdOn,
        createdBy: 'u',
      });
      // stored now: v1@10 'a', v2@20 'b', latest @30 'c'; the moment is 25
      expect(
        rowsAsOf('u', 't', [row(0, 30, 'c'), row(1, 10, 'a'), row(2, 20, 'b')], 25).map((r) => [r.version, r.maxVersion, r.value]),
      ).toEqual([
        [1, null, 'a'],
        [0, 1, 'b'],
      ]);
      // an update committed while the row was read: the old latest was seen again as archive 3
      expect(
        rowsAsOf('u', 't', [row(0, 20, 'b'), row(1, 10, 'a'), row(2, 20, 'b')], 25).map((r) => [r.version, r.maxVersion, r.value]),
      ).toEqual([
        [1, null, 'a'],
        [0, 1, 'b'],
      ]);
      expect(rowsAsOf('u', 't', [row(0, 30, 'c')], 25)).toEqual([]);
      // a delete committed between the scan's read and the held rows' read: both copies count once
      expect(
        rowsAsOf('u', 't', [row(0, 20, 'b'), row(1, 10, 'a'), row(1, 10, 'a'), row(0, 20, 'b')], 25).map((r) => [
          r.version,
          r.maxVersion,
          r.value,
        ]),
      ).toEqual([
        [1, null, 'a'],
        [0, 1, 'b'],
      ]);
    },
    SLOW,
  );
});

// On the second server, which only this file uses: holds and held rows are counted store-wide.
describe('rows deleted while the export runs', () => {
  const gone = ns.dataset('hold-gone');
  const trimmed = ns.dataset('hold-trimmed');
  const before = ns.dataset('hold-before');
  const later = ns.dataset('hold-later');
  const tags = (t: string) => ({ tags: [{ tag: `urn:li:tag:${t}` }] });
  const held = async () => (await cypher<{ n: number }>(target, 'MATCH (r:HeldRow) RETURN count(r) AS n'))[0]!.n;
  const holds = async () => (await cypher<{ n: number }>(target, 'MATCH (h:ExportHold) RETURN count(h) AS n'))[0]!.n;
  const write = (changes: AspectChange[]) => writeAspects(target, changes, { actor: ACTOR, existenceMode: 'relaxed' });
  const del = (urn: string, aspectName: string): AspectChange => ({ urn: parseUrn(urn), aspectName, changeType: 'DELETE' });

  test(
    'are in the file as they were at its moment; rows deleted before it began are not; nothing is held afterwards',
    async () => {
      await write([
        upsert(gone, 'datasetProperties', { name: 'gone', description: 'first' }),
        upsert(trimmed, 'datasetProperties', { name: 'trimmed' }),
        upsert(trimmed, 'globalTags', tags('kept-in-file')),
        upsert(before, 'datasetProperties', { name: 'before' }),
        upsert(before, 'globalTags', tags('deleted-before')),
      ]);
      await write([upsert(gone, 'datasetProperties', { name: 'gone', description: 'second' })]);
      await write([del(before, 'globalTags')]);
      // No export running: a delete keeps nothing.
      expect(await held()).toBe(0);

      const exp = await prepareExport(target, { urnLike: `%${P},hold-%`, skewMarginMs: 200, pageSize: 1 });
      expect(await holds()).toBe(1);
      // After the moment: an entity hard deleted, an aspect deleted then written again, a new entity.
      await write([del(gone, 'datasetKey')]);
      await write([del(trimmed, 'globalTags')]);
      await write([upsert(trimmed, 'globalTags', tags('written-after'))]);
      await write([upsert(later, 'datasetProperties', { name: 'later' })]);
      expect(await held()).toBeGreaterThanOrEqual(4); // gone: key, two properties versions; trimmed's tags

      const file: string[] = [];
      for await (const r of exp.records()) {
        const v = r as { entityUrn: string; aspectName: string; aspect: { value: string }; headers: Record<string, string> };
        file.push(`${v.entityUrn.replace(/.*,(hold-[a-z]+),.*/, '$1')} ${v.aspectName} v${v.headers[HEADERS.version]} ${v.aspect.value}`);
      }
      expect(file).toEqual([
        'hold-before datasetKey v0 {"platform":"urn:li:dataPlatform:' + P + '","name":"hold-before","origin":"PROD"}',
        'hold-before datasetProperties v0 {"name":"before"}',
        'hold-gone datasetKey v0 {"platform":"urn:li:dataPlatform:' + P + '","name":"hold-gone","origin":"PROD"}',
        'hold-gone datasetProperties v1 {"name":"gone","description":"first"}',
        'hold-gone datasetProperties v0 {"name":"gone","description":"second"}',
        'hold-trimmed datasetKey v0 {"platform":"urn:li:dataPlatform:' + P + '","name":"hold-trimmed","origin":"PROD"}',
        'hold-trimmed datasetProperties v0 {"name":"trimmed"}',
        'hold-trimmed globalTags v0 {"tags":[{"tag":"urn:li:tag:kept-in-file"}]}',
      ]);
      // The export ended its hold and dropped what it held; deletes keep nothing again.
      expect(await holds()).toBe(0);
      expect(await held()).toBe(0);
      await write([del(later, 'datasetKey')]);
      expect(await held()).toBe(0);
    },
    SLOW,
  );
});

describe('schema versions', () => {
  test(
    'a store written with the schema from before versions is migrated; a newer store is refused naming both versions',
    async () => {
      await wipe(target);
      for (const idx of await cypher<{ name: string }>(
        target,
        "SHOW INDEXES YIELD name, type, owningConstraint WHERE owningConstraint IS NULL AND type <> 'LOOKUP' RETURN name",
      )) {
        await cypher(target, `DROP INDEX ${idx.name} IF EXISTS`);
      }
      for (const c of await cypher<{ name: string }>(target, 'SHOW CONSTRAINTS YIELD name RETURN name'))
        await cypher(target, `DROP CONSTRAINT ${c.name} IF EXISTS`);
      for (const stmt of splitStatements(
        readFileSync(fileURLToPath(new URL('./fixtures/schema-before-versions.cypher', import.meta.url)), 'utf8'),
      ))
        await cypher(target, stmt);
      // Data as that version left it: rows and lineage, but no facetKey on nodes and no tag edges.
      await writeAspects(
        target,
        [
          upsert(ds[0]!, 'datasetProperties', { name: 'old' }),
          upsert(ds[1]!, 'upstreamLineage', upstreams(ds[0]!)),
          upsert(ds[1]!, 'globalTags', { tags: [{ tag: 'urn:li:tag:old' }] }),
        ],
        { actor: ACTOR, existenceMode: 'relaxed', now: T0 },
      );
      await cypher(target, 'MATCH (s:SchemaVersion) DELETE s');
      await cypher(target, 'MATCH (n:Entity) REMOVE n.facetKey');
      await cypher(target, 'MATCH ()-[r:TaggedWith]->() DELETE r');
      expect(await target.schemaState()).toEqual({ version: null, entities: true });

      // A service starting on it applies the schema but does not claim the migration is done.
      expect(await target.applySchema()).toEqual({ version: 1, current: SCHEMA_VERSION });
      expect((await target.schemaState()).version).toBeNull();

      const result = await migrateStore(target, { by: 'test' });
      expect(result).toMatchObject({ from: 1, to: SCHEMA_VERSION });
      expect(result.steps.map((s) => s.to)).toEqual([2, 3, 4, 5, 6, 7, 8, 9]);
      expect(await target.schemaState()).toEqual({ version: SCHEMA_VERSION, entities: true });
      const indexes = (await cypher<{ name: string }>(target, 'SHOW INDEXES YIELD name RETURN name')).map((i) => i.name);
      expect(indexes).toEqual(
        expect.arrayContaining([
          'entity_search_v3',
          'entity_facet_key',
          'rel_owner_TaggedWith',
          'change_batch_topic_last',
          'change_batch_entity',
          'change_batch_offset',
          'held_row_urn',
          'export_hold_id',
        ]),
      );
      expect(indexes.filter((i) => i.startsWith('change_event_'))).toEqual([]);
      expect(indexes).not.toContain('entity_search');
      expect(indexes).not.toContain('entity_search_v2');
      const missing = await cypher<{ n: number }>(target, 'MATCH (n:Entity) WHERE n.facetKey IS NULL RETURN count(n) AS n');
      expect(missing[0]!.n).toBe(0);
      const tags = await cypher<{ n: number }>(target, 'MATCH (:Entity {urn: $u})-[r:TaggedWith]->() RETURN count(r) AS n', { u: ds[1] });
      expect(tags[0]!.n).toBe(1);
      // Migrating again is a no-op.
      expect((await migrateStore(target, { by: 'test' })).steps).toEqual([]);

      await target.stampSchemaVersion(SCHEMA_VERSION + 1, 'a newer catalog');
      await expect(target.applySchema()).rejects.toThrow(
        `The store is at schema version ${SCHEMA_VERSION + 1}, newer than this catalog knows (${SCHEMA_VERSION})`,
      );
      await expect(migrateStore(target, { by: 'test' })).rejects.toThrow(`schema version ${SCHEMA_VERSION + 1}`);
      await target.stampSchemaVersion(SCHEMA_VERSION, 'test');
    },
    SLOW,
  );

  test(
    'a store at version 5 keeps its change log: every event stored as its own node becomes a batch of one, polled the same',
    async () => {
      await wipe(target);
      await writeAspects(
        target,
        [upsert(ds[0]!, 'datasetProperties', { name: 'v1' }), upsert(ds[1]!, 'upstreamLineage', upstreams(ds[0]!, ds[2]!))],
        { actor: ACTOR, existenceMode: 'relaxed', now: T0 },
      );
      await writeAspects(target, [upsert(ds[0]!, 'datasetProperties', { name: 'v2' })], {
        actor: ACTOR,
        existenceMode: 'relaxed',
        now: T0,
      });
      // A delete copies the rows' text into the events that referred to them: all three kinds of event.
      await writeAspects(target, [{ urn: parseUrn(ds[0]!), aspectName: 'datasetProperties', changeType: 'DELETE' }], {
        actor: ACTOR,
        existenceMode: 'relaxed',
        now: T0,
      });
      const poll = async () => ({
        mcl: await readEvents(target, 'MetadataChangeLog_Versioned_v1', 0, 1000),
        pe: await readEvents(target, 'PlatformEvent_v1', 0, 1000),
      });
      const before = await poll();
      expect(before.pe).toHaveLength(2);
      expect(before.mcl.length).toBeGreaterThanOrEqual(4);
      // Schema 5 stored each event as a node with its text, its compact lineage, or its reference.
      await cypher(
        target,
        `
      MATCH (b:ChangeBatch)
      UNWIND range(0, size(b.items) - 1) AS i
      WITH b, i, left(b.items[i], 1) AS kind, substring(b.items[i], 1) AS text
      CREATE (e:ChangeEvent {offset: b.offset + i, topic: b.topic, entityUrn: b.entityUrn, createdOn: b.createdOn})
      FOREACH (_ IN CASE kind WHEN 'V' THEN [1] ELSE [] END | SET e.value = text)
      FOREACH (_ IN CASE kind WHEN 'L' THEN [1] ELSE [] END | SET e.lineage = text)
      FOREACH (_ IN CASE kind WHEN 'R' THEN [1] ELSE [] END | SET e.ref = split(text, '\\n')[0], e.aspectKey = split(text, '\\n')[1])`,
      );
      await cypher(target, 'MATCH (b:ChangeBatch) DELETE b');
      const kinds = await cypher<{ value: number; lineage: number; ref: number }>(
        target,
        'MATCH (e:ChangeEvent) RETURN count(e.value) AS value, count(e.lineage) AS lineage, count(e.ref) AS ref',
      );
      expect(kinds[0]).toEqual({ value: expect.any(Number), lineage: 2, ref: expect.any(Number) });
      expect(kinds[0]!.value).toBeGreaterThan(0);
      expect(kinds[0]!.ref).toBeGreaterThan(0);
      await target.stampSchemaVersion(5, 'test');

      const result = await migrateStore(target, { by: 'test' });
      expect(result.steps.map((s) => [s.to, s.notes])).toEqual([
        [6, [`${before.mcl.length + before.pe.length} change event(s) moved into batches`]],
        [7, []],
        [8, []],
        [9, []],
      ]);
      expect(await cypher(target, 'MATCH (e:ChangeEvent) RETURN e')).toEqual([]);
      expect(await poll()).toEqual(before);
      // Written after the migration, events continue at the head.
      await writeAspects(target, [upsert(ds[3]!, 'upstreamLineage', upstreams(ds[2]!))], {
        actor: ACTOR,
        existenceMode: 'relaxed',
        now: T0,
      });
      const after = await readEvents(target, 'PlatformEvent_v1', 0, 1000);
      expect(after.slice(0, 2)).toEqual(before.pe);
      expect(after).toHaveLength(3);
    },
    SLOW,
  );

  test(
    "a store at version 8 gains its users' group edges from the membership rows it already holds",
    async () => {
      await wipe(target);
      const [alice, group] = ['urn:li:corpuser:migrated_alice', 'urn:li:corpGroup:migrated_analysts'];
      await writeAspects(target, [upsert(alice, 'groupMembership', { groups: [group] })], {
        actor: ACTOR,
        existenceMode: 'relaxed',
        now: T0,
      });
      // Version 8 derived nothing from groupMembership.
      await cypher(target, 'MATCH ()-[r:IsMemberOfGroup]->() DELETE r');
      await target.stampSchemaVersion(8, 'test');
      const result = await migrateStore(target, { by: 'test' });
      expect(result.steps.map((s) => s.to)).toEqual([9]);
      const edges = await cypher<{ s: string; d: string }>(target, 'MATCH (s)-[:IsMemberOfGroup]->(d) RETURN s.urn AS s, d.urn AS d');
      expect(edges).toEqual([{ s: alice, d: group }]);
    },
    SLOW,
  );
});
