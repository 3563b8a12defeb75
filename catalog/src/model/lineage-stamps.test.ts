import { unchangedWithinGranularity } from './lineage-stamps.ts';
import { stateKey } from './openlineage/entity-state.ts';
import type { AspectWrite } from './openlineage/event-plan.ts';
import { parseOpenLineageEvent } from './openlineage/events.ts';
import { planOpenLineageEvent } from './openlineage/plan-openlineage-event.ts';

const HOUR = 3_600_000;
const ds = (name: string) => `urn:li:dataset:(urn:li:dataPlatform:postgres,${name},PROD)`;
const job = 'urn:li:dataJob:(urn:li:dataFlow:(unknown,app,ns),app.write)';
const same = (aspect: string, a: unknown, b: unknown, g = HOUR) =>
  unchangedWithinGranularity(aspect, JSON.stringify(a), JSON.stringify(b), g);

const upstreams = (time: number, over: Record<string, unknown> = {}) => ({
  upstreams: [
    {
      dataset: ds('a'),
      type: 'TRANSFORMED',
      auditStamp: { time, actor: 'urn:li:corpuser:x' },
      created: { time: 1, actor: 'urn:li:corpuser:x' },
      ...over,
    },
  ],
});

describe('lineage records (upstreamLineage, edges)', () => {
  test('stamps moved by less than the granularity: unchanged; by as much or more: changed', () => {
    expect(same('upstreamLineage', upstreams(1000), upstreams(1000 + HOUR - 1))).toBe(true);
    expect(same('upstreamLineage', upstreams(1000 + HOUR - 1), upstreams(1000))).toBe(true);
    expect(same('upstreamLineage', upstreams(1000), upstreams(1000 + HOUR))).toBe(false);
  });

  test('granularity 0: only an identical value (key order aside) is unchanged', () => {
    expect(same('upstreamLineage', upstreams(1000), upstreams(1001), 0)).toBe(false);
    expect(unchangedWithinGranularity('upstreamLineage', '{"a":1,"b":2}', '{"b":2,"a":1}', 0)).toBe(true);
  });

  test('anything but a stamp time is a change: another dataset, type, actor, property, a stamp added', () => {
    expect(same('upstreamLineage', upstreams(1000), upstreams(1000, { dataset: ds('b') }))).toBe(false);
    expect(same('upstreamLineage', upstreams(1000), upstreams(1000, { type: 'COPY' }))).toBe(false);
    expect(same('upstreamLineage', upstreams(1000), upstreams(1001, { auditStamp: { time: 1001, actor: 'urn:li:corpuser:y' } }))).toBe(
      false,
    );
    expect(same('upstreamLineage', upstreams(1000), upstreams(1000, { properties: { k: 'v' } }))).toBe(false);
    expect(same('upstreamLineage', { upstreams: [{ dataset: ds('a'), type: 'COPY' }] }, upstreams(1000))).toBe(false);
    expect(same('upstreamLineage', upstreams(1000), { upstreams: [...upstreams(1000).upstreams, ...upstreams(1000).upstreams] })).toBe(
      false,
    );
  });

  test('Edge records: created and lastModified times', () => {
    const io = (t: number) => ({
      inputDatasets: [],
      outputDatasets: [],
      inputDatasetEdges: [{ destinationUrn: ds('a'), created: { time: 5, actor: 'u' }, lastModified: { time: t, actor: 'u' } }],
    });
    expect(same('dataJobInputOutput', io(10), io(10 + 60_000))).toBe(true);
    expect(same('dataJobInputOutput', io(10), io(10 + 2 * HOUR))).toBe(false);
  });

  test('a time that stamps no record, and aspects that are not lineage, compare exactly', () => {
    // chartInfo's own lastModified (ChangeAuditStamps) is not a lineage record's stamp.
    const chart = (t: number) => ({
      title: 't',
      description: '',
      lastModified: { created: { time: 0 }, lastModified: { time: t } },
      inputEdges: [],
    });
    expect(same('chartInfo', chart(1), chart(2))).toBe(false);
    expect(same('datasetProperties', { customProperties: {}, created: { time: 1 } }, { customProperties: {}, created: { time: 2 } })).toBe(
      false,
    );
  });
});

describe('a re-run of an OpenLineage job', () => {
  const T0 = Date.parse('2026-11-01T10:00:00Z');
  const rawEvent = (time: number, runId: string): Record<string, any> => ({
    eventType: 'COMPLETE',
    eventTime: new Date(time).toISOString(),
    producer: 'https://example.com/p',
    schemaURL: 'https://openlineage.io/spec/2-0-2/OpenLineage.json#/$defs/RunEvent',
    run: { runId, facets: {} },
    job: { namespace: 'ns', name: 'app.write', facets: { custom_job: { a: 1 } } },
    inputs: [{ namespace: 'postgres://h:5432', name: 'a' }],
    outputs: [
      {
        namespace: 'postgres://h:5432',
        name: 'out',
        facets: {
          schema: { fields: [{ name: 'id', type: 'BIGINT' }] },
          columnLineage: { fields: { id: { inputFields: [{ namespace: 'postgres://h:5432', name: 'a', field: 'id' }] } } },
          stats: { rows: 42 },
        },
      },
    ],
  });
  const event = (time: number, runId: string) => parseOpenLineageEvent(rawEvent(time, runId));
  /** What the first run leaves stored, and what the next run at `later` ms writes on it. */
  function rerun(later: number, change: (e: Record<string, any>) => void = () => {}) {
    const state = new Map<string, Record<string, unknown>>();
    for (const w of planOpenLineageEvent(event(T0, '01a208ee-674b-7b3d-8d85-4f3d45f95882')).writes(state, 'urn:li:corpuser:ol'))
      state.set(stateKey(w.urn, w.aspectName), w.value);
    const next = rawEvent(T0 + later, '01a208ee-674b-7b3d-8d85-4f3d45f95883');
    change(next);
    const writes = planOpenLineageEvent(parseOpenLineageEvent(next)).writes(state, 'urn:li:corpuser:ol');
    return { state, writes };
  }
  const judged = ({ state, writes }: { state: Map<string, Record<string, unknown>>; writes: AspectWrite[] }, g: number) =>
    writes
      .filter((w) => !w.urn.startsWith('urn:li:dataProcessInstance:'))
      .map((w) => {
        const stored = state.get(stateKey(w.urn, w.aspectName));
        return [`${w.aspectName} of ${w.urn}`, stored !== undefined && same(w.aspectName, stored, w.value, g)];
      });

  test('ten minutes later: every job and dataset aspect it writes is unchanged within an hour; its run is new', () => {
    const r = rerun(10 * 60_000);
    const moved = judged(r, 0)
      .filter(([, unchanged]) => !unchanged)
      .map(([what]) => what);
    // Without a granularity the stamps make these changes (what a re-run cost before).
    expect(moved).toEqual(
      expect.arrayContaining([
        `dataJobInputOutput of ${job}`,
        `openLineage of ${job}`,
        `upstreamLineage of ${ds('out')}`,
        `openLineage of ${ds('out')}`,
      ]),
    );
    expect(judged(r, HOUR).filter(([, unchanged]) => !unchanged)).toEqual([]);
    expect(r.writes.some((w) => w.urn.startsWith('urn:li:dataProcessInstance:') && w.aspectName === 'dataProcessInstanceRunEvent')).toBe(
      true,
    );
  });

  test('two hours later the stamps are refreshed', () => {
    expect(
      judged(rerun(2 * HOUR), HOUR)
        .filter(([, unchanged]) => !unchanged)
        .map(([what]) => what),
    ).toEqual(
      expect.arrayContaining([
        `dataJobInputOutput of ${job}`,
        `openLineage of ${job}`,
        `upstreamLineage of ${ds('out')}`,
        `openLineage of ${ds('out')}`,
      ]),
    );
  });

  test('what a producer says beyond stamps is a change within the window: a facet kept verbatim, another input', () => {
    const facet = rerun(60_000, (e) => {
      e.outputs[0].facets.stats = { rows: 43 };
    });
    expect(
      judged(facet, HOUR)
        .filter(([, unchanged]) => !unchanged)
        .map(([what]) => what),
    ).toEqual([`openLineage of ${ds('out')}`]);
    const input = rerun(60_000, (e) => {
      e.inputs.push({ namespace: 'postgres://h:5432', name: 'b' });
    });
    expect(judged(input, HOUR).some(([what, unchanged]) => what === `dataJobInputOutput of ${job}` && !unchanged)).toBe(true);
  });
});
