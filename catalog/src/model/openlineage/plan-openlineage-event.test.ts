import { parseOpenLineageEvent } from './events.ts';
import { stateKey, type StoredAspects } from './entity-state.ts';
import type { AspectWrite } from './event-plan.ts';
import { planOpenLineageEvent } from './plan-openlineage-event.ts';

const ACTOR = 'urn:li:corpuser:ol';
const pg = 'postgres://h:5432';
const ds = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:postgres,${name},PROD)`;
const field = (name: string, col: string) => `urn:li:schemaField:(${ds(name)},${col})`;
const job = 'urn:li:dataJob:(urn:li:dataFlow:(spark,app,ns),app.write)';

function event(overrides: Record<string, unknown> = {}) {
  return parseOpenLineageEvent({
    eventType: 'COMPLETE',
    eventTime: '2026-11-01T10:00:00Z',
    producer: 'https://example.com/p',
    schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent',
    run: { runId: '01a208ee-674b-7b3d-8d85-4f3d45f95882', facets: { processing_engine: { name: 'spark', version: '3.5' } } },
    job: { namespace: 'ns', name: 'app.write', facets: { custom_job: { a: 1 } } },
    inputs: [{ namespace: pg, name: 'a' }],
    outputs: [
      {
        namespace: pg,
        name: 'out',
        facets: {
          schema: {
            fields: [
              { name: 'id', type: 'BIGINT' },
              { name: 'address', type: 'STRUCT', fields: [{ name: 'city', type: 'VARCHAR', description: 'town' }] },
            ],
          },
          columnLineage: { fields: { id: { inputFields: [{ namespace: pg, name: 'a', field: 'id' }] } } },
        },
      },
    ],
    ...overrides,
  });
}

const writes = (state: StoredAspects = new Map(), e = event()) => planOpenLineageEvent(e).writes(state, ACTOR);
const find = (list: AspectWrite[], urn: string, aspect: string) => list.find((w) => w.urn === urn && w.aspectName === aspect)?.value;

test("nested schema fields are flattened with dotted paths, types mapped to DataHub's families", () => {
  const schema = find(writes(), ds('out'), 'schemaMetadata') as { fields: Array<Record<string, unknown>> };
  expect(
    schema.fields.map((f) => [f.fieldPath, f.nativeDataType, Object.keys((f.type as { type: object }).type)[0], f.description]),
  ).toEqual([
    ['id', 'BIGINT', 'com.linkedin.schema.NumberType', undefined],
    ['address', 'STRUCT', 'com.linkedin.schema.MapType', undefined],
    ['address.city', 'VARCHAR', 'com.linkedin.schema.StringType', 'town'],
  ]);
});

test("column lineage keeps other writers' upstreams and the columns the event does not report", () => {
  const stored = new Map([
    [
      stateKey(ds('out'), 'upstreamLineage'),
      {
        upstreams: [
          { dataset: ds('manual'), type: 'COPY' },
          { dataset: ds('gone'), type: 'TRANSFORMED', properties: { 'openlineage.job': job } },
        ],
        fineGrainedLineages: [
          { upstreamType: 'FIELD_SET', upstreams: [field('manual', 'x')], downstreamType: 'FIELD', downstreams: [field('out', 'other')] },
          { upstreamType: 'FIELD_SET', upstreams: [field('gone', 'id')], downstreamType: 'FIELD', downstreams: [field('out', 'id')] },
        ],
      },
    ],
  ]);
  const up = find(writes(stored), ds('out'), 'upstreamLineage') as {
    upstreams: Array<{ dataset: string }>;
    fineGrainedLineages: Array<{ upstreams: string[]; downstreams: string[] }>;
  };
  expect(up.upstreams.map((u) => u.dataset)).toEqual([ds('manual'), ds('a')]);
  expect(up.fineGrainedLineages.map((f) => [f.upstreams, f.downstreams])).toEqual([
    [[field('manual', 'x')], [field('out', 'other')]],
    [[field('a', 'id')], [field('out', 'id')]],
  ]);
});

test('facets the mapping does not interpret are kept, a newer one is not replaced by an older one', () => {
  const first = find(writes(), job, 'openLineage') as Record<string, any>;
  expect(first.facets).toEqual({ custom_job: { a: 1 } });
  expect(Object.keys(first.facets)).not.toContain('jobType');
  const stored = new Map([
    [
      stateKey(job, 'openLineage'),
      {
        eventTime: Date.parse('2026-11-02T00:00:00Z'),
        facets: { custom_job: { a: 2 } },
        facetTimes: { custom_job: Date.parse('2026-11-02T00:00:00Z') },
      },
    ],
  ]);
  const older = find(writes(stored), job, 'openLineage') as Record<string, any>;
  expect(older.facets.custom_job).toEqual({ a: 2 });
  // An older event does not rewrite the job's description or lineage either.
  expect(find(writes(stored), job, 'dataJobInfo')).toBeUndefined();
});

test('a FAIL writes the run and the entities, no lineage', () => {
  const w = writes(new Map(), event({ eventType: 'FAIL' }));
  expect(find(w, job, 'dataJobInputOutput')).toBeUndefined();
  expect(find(w, ds('out'), 'upstreamLineage')).toBeUndefined();
  expect(find(w, 'urn:li:dataProcessInstance:01a208ee-674b-7b3d-8d85-4f3d45f95882', 'dataProcessInstanceRunEvent')).toEqual({
    timestampMillis: Date.parse('2026-11-01T10:00:00Z'),
    status: 'COMPLETE',
    result: { type: 'FAILURE', nativeResultType: 'FAIL' },
  });
});

test('entities are written before the lineage that names them', () => {
  const order = writes().map((w) => `${w.aspectName} ${w.urn}`);
  const lineageAt = order.indexOf(`dataJobInputOutput ${job}`);
  expect(order.findIndex((x) => x.endsWith(ds('a')))).toBeLessThan(lineageAt);
  expect(order.indexOf(`dataJobInfo ${job}`)).toBeLessThan(lineageAt);
});

test('an event without inputs and outputs says nothing of them; empty lists say "none"', () => {
  const silent = writes(new Map(), event({ inputs: undefined, outputs: undefined }));
  expect(find(silent, job, 'dataJobInputOutput')).toBeUndefined();
  expect((find(silent, job, 'openLineage') as Record<string, unknown>).lineageEventTime).toBeUndefined();
  const none = writes(new Map(), event({ inputs: [], outputs: [] }));
  expect(find(none, job, 'dataJobInputOutput')).toMatchObject({ inputDatasetEdges: [], outputDatasetEdges: [] });
});

test("column lineage names its input columns through the event's symlinks, as the datasets are named", () => {
  const table = (name: string) => ({
    symlinks: { identifiers: [{ namespace: 'file:/warehouse', name: `default.${name}`, type: 'TABLE' }] },
  });
  const hive = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:hive,default.${name},PROD)`;
  const e = event({
    inputs: [{ namespace: 'file', name: '/warehouse/src', facets: table('src') }],
    outputs: [
      {
        namespace: 'file',
        name: '/warehouse/dst',
        facets: {
          ...table('dst'),
          columnLineage: {
            fields: {
              id: {
                inputFields: [
                  { namespace: 'file', name: '/warehouse/src', field: 'id' },
                  // Not among the event's datasets: its name as sent.
                  { namespace: 'file', name: '/elsewhere/raw', field: 'id' },
                ],
              },
            },
          },
        },
      },
    ],
  });
  const w = writes(new Map(), e);
  const up = find(w, hive('dst'), 'upstreamLineage') as {
    upstreams: Array<{ dataset: string }>;
    fineGrainedLineages: Array<{ upstreams: string[]; downstreams: string[] }>;
  };
  const raw = 'urn:li:dataset:(urn:li:dataPlatform:file,/elsewhere/raw,PROD)';
  expect(up.upstreams.map((u) => u.dataset).sort()).toEqual([hive('src'), raw].sort());
  expect(up.fineGrainedLineages.map((f) => [[...f.upstreams].sort(), f.downstreams])).toEqual([
    [[`urn:li:schemaField:(${hive('src')},id)`, `urn:li:schemaField:(${raw},id)`].sort(), [`urn:li:schemaField:(${hive('dst')},id)`]],
  ]);
  expect(w.some((x) => x.urn.includes('/warehouse/'))).toBe(false);
});

test("a run's additions are kept per run: its FAIL takes back only its own, another run's stay", () => {
  const apply = (state: Map<string, any>, e: ReturnType<typeof event>) => {
    for (const w of writes(state, e)) state.set(stateKey(w.urn, w.aspectName), w.value);
    return state;
  };
  const run = (id: string, eventType: string, time: string, inputs: string[], columns: Record<string, string[]>) =>
    event({
      eventType,
      eventTime: time,
      run: { runId: id, facets: { processing_engine: { name: 'spark', version: '3.5' } } },
      inputs: inputs.map((name) => ({ namespace: pg, name })),
      outputs: [
        {
          namespace: pg,
          name: 'out',
          facets: {
            columnLineage: {
              fields: Object.fromEntries(
                Object.entries(columns).map(([c, ins]) => [c, { inputFields: ins.map((name) => ({ namespace: pg, name, field: c })) }]),
              ),
            },
          },
        },
      ],
    });
  const one = '11111111-1111-4111-8111-111111111111',
    two = '22222222-2222-4222-8222-222222222222';
  const state = new Map<string, any>();
  apply(state, run(one, 'START', '2026-11-01T10:00:00Z', ['a', 'shared'], { id: ['a'], k: ['shared'] }));
  apply(state, run(two, 'START', '2026-11-01T10:01:00Z', ['b', 'shared'], { id: ['b'], k: ['shared'] }));
  const failTwo = event({
    eventType: 'FAIL',
    eventTime: '2026-11-01T10:02:00Z',
    run: { runId: two, facets: { processing_engine: { name: 'spark', version: '3.5' } } },
    inputs: undefined,
    outputs: undefined,
  });
  const plan = planOpenLineageEvent(failTwo);
  // The FAIL names no datasets: the outputs come from the job's state, read in a second step.
  expect(plan.followUp?.(state).locks).toEqual([ds('out')]);
  apply(state, failTwo);
  const io = state.get(stateKey(job, 'dataJobInputOutput'));
  expect(io.inputDatasetEdges.map((e: { destinationUrn: string }) => e.destinationUrn).sort()).toEqual([ds('a'), ds('shared')]);
  const fine = state
    .get(stateKey(ds('out'), 'upstreamLineage'))
    .fineGrainedLineages.map((f: { upstreams: string[]; downstreams: string[] }) => [f.downstreams[0], f.upstreams]);
  expect(fine).toEqual([
    [field('out', 'id'), [field('a', 'id')]],
    [field('out', 'k'), [field('shared', 'k')]],
  ]);
  // A late START of the failed run adds nothing.
  apply(state, run(two, 'START', '2026-11-01T10:00:30Z', ['late'], { late: ['late'] }));
  expect(
    state.get(stateKey(job, 'dataJobInputOutput')).inputDatasetEdges.map((e: { destinationUrn: string }) => e.destinationUrn),
  ).not.toContain(ds('late'));
  expect(JSON.stringify(state.get(stateKey(ds('out'), 'upstreamLineage')))).not.toContain('late');
});

test('transformations become transformOperation: TYPE:SUBTYPE, distinct, sorted ignoring case, TYPE alone without a subtype', () => {
  const e = event({
    outputs: [
      {
        namespace: pg,
        name: 'out',
        facets: {
          columnLineage: {
            fields: {
              id: {
                inputFields: [
                  {
                    namespace: pg,
                    name: 'a',
                    field: 'id',
                    transformations: [
                      { type: 'INDIRECT', subtype: 'JOIN' },
                      { type: 'DIRECT', subtype: 'IDENTITY' },
                    ],
                  },
                  {
                    namespace: pg,
                    name: 'b',
                    field: 'id',
                    transformations: [
                      { type: 'direct', subtype: 'Transformation' },
                      { type: 'INDIRECT', subtype: 'JOIN' },
                      { type: 'MASKED' },
                    ],
                  },
                ],
              },
            },
          },
        },
      },
    ],
  });
  const up = find(writes(new Map(), e), ds('out'), 'upstreamLineage') as { fineGrainedLineages: Array<{ transformOperation?: string }> };
  expect(up.fineGrainedLineages.map((f) => f.transformOperation)).toEqual(['DIRECT:IDENTITY,direct:Transformation,INDIRECT:JOIN,MASKED']);
  // None given: no transformOperation.
  const plain = find(writes(), ds('out'), 'upstreamLineage') as { fineGrainedLineages: Array<Record<string, unknown>> };
  expect(plain.fineGrainedLineages[0]).not.toHaveProperty('transformOperation');
});
