import { luceneOf, searchQueryOf, searchTextOf } from './search-analyzer.ts';

const words = (text: string) => searchTextOf([text]).split(' ');

test('pieces are kept whole and split at . _ - / and case changes, lower case', () => {
  expect(words('db.sales.fct_orders')).toEqual(['db.sales.fct_orders', 'db', 'sales', 'fct', 'orders']);
  expect(words('search_smoke_test-88fc650f')).toEqual(['search_smoke_test-88fc650f', 'search', 'smoke', 'test', '88fc650f']);
  expect(words('fctRevenueDaily HTTPServer')).toEqual(['fctrevenuedaily', 'fct', 'revenue', 'daily', 'httpserver', 'http', 'server']);
  expect(words('s3://bucket/raw/events')).toEqual(['s3', 'bucket', 'raw', 'events']);
  expect(searchTextOf(['urn:li:dataset:(urn:li:dataPlatform:hive,db.t,PROD)']).split(' ')).toEqual([
    'urn',
    'li',
    'dataset',
    'dataplatform',
    'data',
    'platform',
    'hive',
    'db.t',
    'db',
    't',
    'prod',
  ]);
});

test('texts are merged without repeats; absent texts and over-long pieces add nothing whole', () => {
  expect(searchTextOf(['fct_orders', null, undefined, 'orders'])).toBe('fct_orders fct orders');
  const long = 'x'.repeat(200);
  expect(searchTextOf([`${long}_yes`])).toBe('yes');
});

test('a query: every word required as a prefix (synonyms as alternatives), compound pieces lift exact holders', () => {
  expect(searchQueryOf('')).toBeUndefined();
  expect(searchQueryOf(' * ')).toBeUndefined();
  const q = searchQueryOf('search_smoke_test-88fc650f')!;
  expect(q.words).toEqual([['search'], ['smoke'], ['test'], ['88fc650f']]);
  expect(luceneOf(q)).toBe('+search* +smoke* +test* +88fc650f* search_smoke_test\\-88fc650f^4');
  expect(luceneOf(searchQueryOf('staging orders')!)).toBe('+(stg* staging*) +orders*');
  expect(luceneOf(searchQueryOf('a:b (c)')!)).toBe('+a* +b* +c*');
  expect(luceneOf(searchQueryOf('fct_users AND (')!)).toBe('+fct* +users* +and* fct_users^4');
});
