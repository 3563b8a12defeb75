// The OpenAPI half of the malformed-request corpus (issue 30): the v3 entity doors (POST, PATCH,
// DELETE, batchGet), the relationship doors (OpenAPI v1 and Rest.li GET /relationships) and the
// lineage scroll, with the inputs that used to reach Neo4j or the store as something else —
// control characters, unpaired surrogates, '/'-only names, 10 KB and 1 MiB urns, non-UTF-8
// bytes, numbers past a Java int, mixed batches. Errors on these paths are `{"error": message}`
// (the Rest.li /relationships route answers Rest.li bodies).
import { invalidUrns, type Fixtures } from './fixtures.ts';

// The path's entity type: the urn's own when it is a plain word, else dataset — a type the registry
// does not know is a 404 naming it (a case of its own), not the invalid urn these cases are about.
const pathTypeOf = (urn: string): string => {
  const t = urn.split(':')[2] ?? '';
  return /^[A-Za-z]+$/.test(t) ? t : 'dataset';
};

export interface OpenApiCase {
  id: string;
  endpoint: string;
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  body?: unknown;
  status: number;
  message: RegExp;
  /** The Rest.li route: a Rest.li error body instead of {"error"}. */
  restli?: true;
}

const enc = encodeURIComponent;

export function openApiCases(fx: Fixtures): OpenApiCase[] {
  const cases: OpenApiCase[] = [];
  const p = fx.ns.platform;
  const mib = `urn:li:dataset:(urn:li:dataPlatform:${p},${'m'.repeat(1 << 20)},PROD)`;
  const bad = [...invalidUrns(p).filter((u) => !u.keyShape), { rule: 'a 1 MiB urn', urn: mib, reason: /longer than 4096 bytes/ }];
  const status = (removed: boolean) => ({ status: { value: { removed } } });
  const patch = { status: { value: { patch: [{ op: 'add', path: '/removed', value: true }] } } };

  for (const u of bad) {
    const named = (where: string) => new RegExp(`${where}[\\s\\S]*${u.reason.source}`, u.reason.flags);
    cases.push(
      {
        id: `POST v3: ${u.rule}`,
        endpoint: 'POST /openapi/v3/entity',
        method: 'POST',
        path: '/openapi/v3/entity/dataset?async=false',
        body: [{ urn: u.urn, ...status(true) }],
        status: 400,
        message: named('element \\[0\\]'),
      },
      // The cross-type door: the bad urn under the second type, after a good element of another.
      {
        id: `POST v3 generic: good chart, then dataset ${u.rule}`,
        endpoint: 'POST /openapi/v3/entity/generic',
        method: 'POST',
        path: '/openapi/v3/entity/generic?async=false',
        body: { chart: [{ urn: fx.ns.chart('corpus_generic'), ...status(true) }], dataset: [{ urn: u.urn, ...status(true) }] },
        status: 400,
        message: named('element \\[0\\]'),
      },
      // Mixed batch: the good element first; nothing of the batch may be written.
      {
        id: `POST v3 mixed batch: good, then ${u.rule}`,
        endpoint: 'POST /openapi/v3/entity',
        method: 'POST',
        path: '/openapi/v3/entity/dataset?async=false',
        body: [
          { urn: fx.a, ...status(true) },
          { urn: u.urn, ...status(true) },
        ],
        status: 400,
        message: /element \[1\]/,
      },
      {
        id: `PATCH v3 mixed batch: good, then ${u.rule}`,
        endpoint: 'PATCH /openapi/v3/entity',
        method: 'PATCH',
        path: '/openapi/v3/entity/dataset?async=false',
        body: [
          { urn: fx.b, ...patch },
          { urn: u.urn, ...patch },
        ],
        status: 400,
        message: /element \[1\]/,
      },
      {
        id: `batchGet v3: ${u.rule}`,
        endpoint: 'POST /openapi/v3/entity/batchGet',
        method: 'POST',
        path: '/openapi/v3/entity/dataset/batchGet',
        body: [{ urn: fx.a }, { urn: u.urn }],
        status: 400,
        message: /element \[1\]/,
      },
      {
        id: `scroll: ${u.rule}`,
        endpoint: 'POST /openapi/v3/lineage/scroll',
        method: 'POST',
        path: '/openapi/v3/lineage/scroll',
        body: { urns: [fx.a, u.urn] },
        status: 400,
        message: named('urns\\[1\\]'),
      },
    );
    // In a URL: a 1 MiB urn is over any header limit; the others fit.
    if (u.urn.length < 64 * 1024 && u.urn.isWellFormed()) {
      cases.push(
        {
          id: `DELETE v3: ${u.rule}`,
          endpoint: 'DELETE /openapi/v3/entity',
          method: 'DELETE',
          path: `/openapi/v3/entity/${enc(pathTypeOf(u.urn))}/${enc(u.urn)}`,
          status: 400,
          message: /the path/,
        },
        {
          id: `relationships v1: ${u.rule}`,
          endpoint: 'GET /openapi/relationships/v1',
          method: 'GET',
          path: `/openapi/relationships/v1/?urn=${enc(u.urn)}&direction=INCOMING&relationshipTypes=DownstreamOf`,
          status: 400,
          message: named("query parameter 'urn'"),
        },
        {
          id: `Rest.li relationships: ${u.rule}`,
          endpoint: 'GET /relationships',
          method: 'GET',
          path: `/relationships?urn=${enc(u.urn)}&types=List(DownstreamOf)&direction=INCOMING`,
          status: 422,
          message: u.reason,
          restli: true,
        },
      );
    }
  }

  // Numbers: DataHub binds start/count as Java ints.
  for (const [param, value] of [
    ['start', '2147483648'],
    ['start', '99999999999999999999'],
    ['count', '2147483648'],
    ['start', '-1'],
    ['count', '1e3'],
    ['start', '0x10'],
  ] as const) {
    const why = /^\d+$/.test(value) ? /must be at most 2147483647/ : /must be a non-negative integer/;
    cases.push(
      {
        id: `relationships v1: ${param}=${value}`,
        endpoint: 'GET /openapi/relationships/v1',
        method: 'GET',
        path: `/openapi/relationships/v1/?urn=${enc(fx.a)}&direction=INCOMING&relationshipTypes=DownstreamOf&${param}=${value}`,
        status: 400,
        message: new RegExp(`'${param}' ${why.source}`),
      },
      {
        id: `Rest.li relationships: ${param}=${value}`,
        endpoint: 'GET /relationships',
        method: 'GET',
        path: `/relationships?urn=${enc(fx.a)}&types=List(DownstreamOf)&direction=INCOMING&${param}=${value}`,
        status: 400,
        message: new RegExp(`'${param}' ${why.source}`),
        restli: true,
      },
    );
  }
  cases.push({
    id: 'scroll: count=2147483648',
    endpoint: 'POST /openapi/v3/lineage/scroll',
    method: 'POST',
    path: '/openapi/v3/lineage/scroll?count=2147483648',
    body: {},
    status: 400,
    message: /'count' must be at most 2147483647/,
  });
  for (const [q, why] of [
    ['sliceId=2147483648&sliceMax=2147483647', /'sliceId' must be at most 2147483647/],
    ['sliceId=1e3&sliceMax=2000', /'sliceId' must be a non-negative integer, got '1e3'/],
    ['sliceId=5&sliceMax=5', /'sliceId' must be less than 'sliceMax' \(5\), got 5/],
  ] as const) {
    cases.push({
      id: `entity scroll: ${q}`,
      endpoint: 'POST /openapi/v3/entity/scroll',
      method: 'POST',
      path: `/openapi/v3/entity/scroll?${q}`,
      body: {},
      status: 400,
      message: why,
    });
  }
  cases.push({
    id: 'scroll: 10,001 urns',
    endpoint: 'POST /openapi/v3/lineage/scroll',
    method: 'POST',
    path: '/openapi/v3/lineage/scroll',
    body: { urns: Array.from({ length: 10_001 }, (_, i) => fx.ns.dataset(`s${i}`)) },
    status: 400,
    message: /Too many urns: 10001 > 10000 \(MAX_BATCH_PROPOSALS\)/,
  });

  // Non-UTF-8 bodies: 0xFF 0xFE inside a name on every body-taking door.
  const withBadBytes = (json: unknown) => {
    const text = Buffer.from(JSON.stringify(json));
    const at = text.indexOf(p) + p.length;
    return Buffer.concat([text.subarray(0, at), Buffer.from([0xff, 0xfe]), text.subarray(at)]);
  };
  for (const [endpoint, method, path, json] of [
    ['POST /openapi/v3/entity', 'POST', '/openapi/v3/entity/dataset?async=false', [{ urn: fx.a, ...status(true) }]],
    ['PATCH /openapi/v3/entity', 'PATCH', '/openapi/v3/entity/dataset?async=false', [{ urn: fx.a, ...patch }]],
    ['POST /openapi/v3/entity/batchGet', 'POST', '/openapi/v3/entity/dataset/batchGet', [{ urn: fx.a }]],
    ['POST /openapi/v3/entity/generic', 'POST', '/openapi/v3/entity/generic?async=false', { dataset: [{ urn: fx.a, ...status(true) }] }],
    ['POST /openapi/v3/lineage/scroll', 'POST', '/openapi/v3/lineage/scroll', { urns: [fx.a] }],
  ] as const) {
    cases.push({
      id: `${endpoint}: invalid UTF-8 (0xFF 0xFE) inside a name`,
      endpoint,
      method,
      path,
      body: withBadBytes(json),
      status: 400,
      message: /Request body is not valid UTF-8/,
    });
  }
  return cases;
}
