import { gmsRouteTemplate } from './gms-routes.ts';
import { isMarquezApiPath, isMarquezRead } from './marquez-paths.ts';

test('Marquez reads: namespaces and jobs under /api/v1, and GET (not POST) /api/v1/lineage', () => {
  expect(['/api/v1/namespaces', '/api/v1/namespaces/x/datasets/y', '/api/v1/jobs', '/api/v1/jobs/runs/r'].every(isMarquezApiPath)).toBe(
    true,
  );
  expect(['/api/v1/column-lineage', '/api/v1/search', '/api/v1/tags', '/api/v1/sources'].every(isMarquezApiPath)).toBe(true);
  expect(isMarquezApiPath('/api/v1/lineage')).toBe(false);
  expect(isMarquezApiPath('/api/v1/searches')).toBe(false);
  expect(isMarquezApiPath('/api/v1/namespacesx')).toBe(false);
  expect(isMarquezRead('GET', '/api/v1/lineage')).toBe(true);
  expect(isMarquezRead('GET', '/api/v1/lineage/')).toBe(true);
  expect(isMarquezRead('POST', '/api/v1/lineage')).toBe(false);
  expect(isMarquezRead('POST', '/api/v1/lineage/batch')).toBe(false);
});

test('their metric labels name the route, never the namespace, dataset, job or run', () => {
  expect(gmsRouteTemplate('/api/v1/namespaces/s3%3A%2F%2Fb/datasets/a%2Fb?limit=1')).toBe(
    '/api/v1/namespaces/{namespace}/datasets/{dataset}',
  );
  expect(gmsRouteTemplate('/api/v1/namespaces/ns/jobs/j/runs')).toBe('/api/v1/namespaces/{namespace}/jobs/{job}/runs');
  expect(gmsRouteTemplate('/api/v1/jobs/runs/123')).toBe('/api/v1/jobs/runs/{id}');
  expect(gmsRouteTemplate('/api/v1/lineage?nodeId=job:a:b')).toBe('/api/v1/lineage');
  expect(gmsRouteTemplate('/api/v1/column-lineage?nodeId=dataset:a:b')).toBe('/api/v1/column-lineage');
  expect(gmsRouteTemplate('/api/v1/search?q=x')).toBe('/api/v1/search');
  expect(gmsRouteTemplate('/api/v1/namespaces/a/b/c/d/e')).toBe('unmatched');
});
