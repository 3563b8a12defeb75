// Property-based fuzzing of whole Rest.li envelopes (issue 7 item 1): MetadataChangeProposals and
// MCE snapshots built from a mix of valid parts, near-misses and arbitrary JSON go through the
// ingestion service's envelope parsing (proposalToChange / snapshotToChanges) and on into aspect
// validation and PATCH parsing. The only thing allowed to escape is a CatalogError of a 4xx kind —
// never a TypeError, RangeError or anything the service would have to mask as a 500.
// (The urn parser and the aspect validators have their own properties beside their code.)
import fc from 'fast-check';
import { CatalogError } from '../../catalog/src/model/errors.ts';
import { restStatusOf } from '../../service-kit/src/error-codes.ts';
import { validateAspect } from '../../catalog/src/model/aspects/index.ts';
import { applyPatch } from '../../catalog/src/model/patch/index.ts';
import { proposalToChange, snapshotToChanges } from '../../ingestion-service/src/proposals.ts';
import { invalidUrns } from './corpus/fixtures.ts';

const VALID_URNS = [
  'urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)',
  'urn:li:dataJob:(urn:li:dataFlow:(airflow,dag,PROD),task)',
  'urn:li:chart:(looker,c1)',
  'urn:li:dashboard:(looker,d1)',
  'urn:li:corpuser:alice',
  'urn:li:mlPrimaryKey:(ns,pk)',
  'urn:li:schemaField:(urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD),col)',
  'urn:li:fooBar:x',
];
const ASPECTS = [
  'upstreamLineage',
  'status',
  'datasetProperties',
  'dataJobInputOutput',
  'chartInfo',
  'dashboardInfo',
  'datasetKey',
  'mlPrimaryKeyProperties',
  'customThing',
  'Bad-Name',
  '__proto__',
  'constructor',
  'toString',
  '',
];
const CHANGE_TYPES = ['UPSERT', 'CREATE', 'CREATE_ENTITY', 'UPDATE', 'DELETE', 'PATCH', 'RESTATE', 'upsert', 'MERGE', ''];

/** What a urn field may hold: valid, invalid by each grammar rule, mutated, or not a string at all. */
const urnish = fc.oneof(
  fc.constantFrom(...VALID_URNS),
  fc.constantFrom(...invalidUrns('fz').map((u) => u.urn)),
  fc
    .tuple(fc.constantFrom(...VALID_URNS), fc.nat(60), fc.string({ maxLength: 3, unit: 'binary' }))
    .map(([u, at, s]) => u.slice(0, at) + s + u.slice(at)),
  fc.string({ unit: 'binary' }),
  fc.anything(),
);

/** Aspect values: modelled shapes with holes, deep nesting, arbitrary JSON. */
const jsonValue = fc.oneof(
  fc.jsonValue(),
  fc.record(
    {
      upstreams: fc.array(fc.record({ dataset: urnish, type: fc.constantFrom('COPY', 'TRANSFORMED', 'NOPE', 3) }, { requiredKeys: [] }), {
        maxLength: 3,
      }),
    },
    { requiredKeys: [] },
  ),
  fc.record({ removed: fc.oneof(fc.boolean(), fc.jsonValue()) }, { requiredKeys: [] }),
  fc.nat({ max: 3000 }).map((d) => JSON.parse(`{"v": ${'['.repeat(d)}1${']'.repeat(d)}}`) as unknown),
);
const patchOps = fc.array(
  fc.record(
    {
      op: fc.constantFrom('add', 'remove', 'replace', 'move', 'copy', 'test', 'merge', 1),
      path: fc.oneof(
        fc.constantFrom(
          '/upstreams/urn:li:dataset:(urn:li:dataPlatform:hive,u,PROD)',
          '/__proto__/x',
          '/constructor/prototype/x',
          '/a~2b',
          '/a~',
          '',
          'nope',
          '/inputEdges/urn:li:chart:(looker,c1)',
        ),
        fc.string({ unit: 'binary' }),
      ),
      value: jsonValue,
      from: fc.string(),
    },
    { requiredKeys: [] },
  ),
  { maxLength: 4 },
);

const aspectText = fc.oneof(
  jsonValue.map((v) => JSON.stringify(v)),
  patchOps.map((ops) => JSON.stringify(ops)),
  patchOps.map((ops) => JSON.stringify({ patch: ops, arrayPrimaryKeys: {}, forceGenericPatch: false })),
  fc.string({ unit: 'binary' }),
  fc.nat({ max: 20_000 }).map((d) => `[${'{"a":'.repeat(d)}1${'}'.repeat(d)}]`),
);

const proposal = fc.record(
  {
    entityType: fc.oneof(fc.constantFrom('dataset', 'dataJob', 'chart', 'corpuser', 'fooBar', 'Dataset', ''), fc.anything()),
    entityUrn: urnish,
    entityKeyAspect: fc.anything(),
    changeType: fc.oneof(fc.constantFrom(...CHANGE_TYPES), fc.anything()),
    aspectName: fc.oneof(fc.constantFrom(...ASPECTS), fc.string({ unit: 'binary' }), fc.anything()),
    aspect: fc.oneof(
      fc.record(
        {
          value: aspectText,
          contentType: fc.constantFrom('application/json', 'application/json-patch+json', 'text/plain', 'APPLICATION/JSON'),
        },
        { requiredKeys: ['value'] },
      ),
      fc.anything(),
    ),
    systemMetadata: fc.oneof(
      fc.constant(undefined),
      fc.jsonValue(),
      fc.jsonValue().map((v) => JSON.stringify(v)),
      fc.record({ lastObserved: fc.oneof(fc.integer(), fc.string(), fc.double()) }),
    ),
  },
  { requiredKeys: [] },
);

const ALLOWED_KINDS = new Set(['badRequest', 'validation']);

/** Runs `work`; anything thrown must be a 4xx CatalogError (of the kinds parsing may raise). */
function only4xx(work: () => void): void {
  try {
    work();
  } catch (e) {
    if (!(e instanceof CatalogError)) throw new Error(`escaped a non-CatalogError: ${(e as Error)?.name}: ${(e as Error)?.message}`);
    expect(ALLOWED_KINDS).toContain(e.kind);
    expect(restStatusOf[e.kind]).toBeGreaterThanOrEqual(400);
    expect(restStatusOf[e.kind]).toBeLessThan(500);
    expect(e.message.length).toBeGreaterThan(0);
  }
}

/** The envelope, then what the write path does first with its result: validate or parse the patch. */
function ingestOne(raw: unknown): void {
  const change = proposalToChange(raw);
  if (change.value !== undefined) validateAspect(change.aspectName, change.value, change.urn);
  if (change.patchText !== undefined) {
    const value = applyPatch({ aspectName: change.aspectName, current: undefined, patchText: change.patchText, now: 0 });
    validateAspect(change.aspectName, value, change.urn);
  }
}

describe('MetadataChangeProposal envelopes', () => {
  test('arbitrary proposals only ever fail with 4xx CatalogErrors', () => {
    fc.assert(
      fc.property(proposal, (p) => only4xx(() => ingestOne(p))),
      { numRuns: 3000 },
    );
  });

  test('arbitrary JSON in place of the proposal only ever fails with 4xx CatalogErrors', () => {
    fc.assert(
      fc.property(fc.anything(), (p) => only4xx(() => ingestOne(p))),
      { numRuns: 1000 },
    );
  });

  test("a proposal that parses names a well-formed urn whose type is the proposal's entityType", () => {
    fc.assert(
      fc.property(proposal, (p) => {
        let change;
        try {
          change = proposalToChange(p);
        } catch {
          return;
        }
        expect(change.urn.entityType).toBe(p.entityType);
        expect(change.urn.text.isWellFormed()).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });
});

describe('MCE snapshots', () => {
  const aspectUnion = fc.oneof(
    fc.dictionary(
      fc.constantFrom(
        'com.linkedin.dataset.UpstreamLineage',
        'com.linkedin.common.Status',
        'com.linkedin.common.Nope',
        '__proto__',
        'constructor',
      ),
      jsonValue,
      { maxKeys: 2 },
    ),
    fc.anything(),
  );
  const entity = fc.oneof(
    fc.record({
      value: fc.dictionary(
        fc.constantFrom(
          'com.linkedin.metadata.snapshot.DatasetSnapshot',
          'com.linkedin.metadata.snapshot.ChartSnapshot',
          'com.linkedin.metadata.snapshot.TableSnapshot',
          '__proto__',
        ),
        fc.record({ urn: urnish, aspects: fc.oneof(fc.array(aspectUnion, { maxLength: 3 }), fc.anything()) }, { requiredKeys: [] }),
        { maxKeys: 2 },
      ),
    }),
    fc.anything(),
  );
  test('arbitrary snapshots only ever fail with 4xx CatalogErrors', () => {
    fc.assert(
      fc.property(entity, fc.oneof(fc.jsonValue(), fc.constant(undefined)), (e, sm) =>
        only4xx(() => {
          for (const c of snapshotToChanges(e, sm)) validateAspect(c.aspectName, c.value, c.urn);
        }),
      ),
      { numRuns: 2000 },
    );
  });
});
