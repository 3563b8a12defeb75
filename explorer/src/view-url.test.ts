import { columnKey } from './columns.ts';
import { parseViewHash, sameLineageRequest, viewHash, type ViewParams } from './view-url.ts';

const table = 'urn:li:dataset:(urn:li:dataPlatform:hive,db.orders,PROD)';
const chart = 'urn:li:chart:(looker,revenue)';

const full: ViewParams = {
  urn: table,
  directions: { UPSTREAM: false, DOWNSTREAM: true },
  degree: '2',
  types: ['DATASET', 'CHART'],
  platforms: ['urn:li:dataPlatform:hive'],
  timeWindow: { startTimeMillis: Date.parse('2026-01-01T00:00:00Z'), endTimeMillis: Date.parse('2026-02-01T00:00:00Z') + 86_400_000 - 1 },
  showColumns: true,
  column: columnKey(chart, 'sum(x), y'),
};

test('a view survives the trip through the hash, column and time window included', () => {
  const hash = viewHash(full);
  expect(hash).toContain('dir=down');
  expect(hash).toContain('from=2026-01-01');
  expect(hash).toContain('to=2026-02-01');
  expect(parseViewHash(hash)).toEqual({ ...full, types: ['CHART', 'DATASET'] });
});

test('defaults are left out, and the older #urn=<encoded urn> links still open', () => {
  const plain: ViewParams = {
    ...full,
    directions: { UPSTREAM: true, DOWNSTREAM: true },
    degree: '3+',
    types: [],
    platforms: [],
    timeWindow: { startTimeMillis: null, endTimeMillis: null },
    showColumns: false,
    column: null,
  };
  expect(viewHash(plain)).toMatch(/^#urn=[^&]+$/);
  expect(parseViewHash(viewHash(plain))).toEqual(plain);
  expect(parseViewHash(`#urn=${encodeURIComponent(table)}`)).toEqual(plain);
  expect(parseViewHash('#')).toBeNull();
  expect(parseViewHash('')).toBeNull();
});

test('malformed values fall back to the defaults', () => {
  const v = parseViewHash(`#urn=${encodeURIComponent(table)}&degree=7&dir=sideways&from=yesterday`)!;
  expect(v.degree).toBe('3+');
  expect(v.directions).toEqual({ UPSTREAM: true, DOWNSTREAM: true });
  expect(v.timeWindow.startTimeMillis).toBeNull();
});

test('a lineage request changes with filters, not with the column display', () => {
  expect(sameLineageRequest(full, { ...full, showColumns: false, column: null })).toBe(true);
  expect(sameLineageRequest(full, { ...full, types: ['CHART'] })).toBe(false);
  expect(sameLineageRequest(full, { ...full, timeWindow: { startTimeMillis: null, endTimeMillis: full.timeWindow.endTimeMillis } })).toBe(
    false,
  );
});
