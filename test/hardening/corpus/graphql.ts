// The GraphQL half of the malformed-request corpus (docs/wire-contract.md §GraphQL): transport failures are bare
// HTTP 4xx; syntax errors InvalidSyntax, validation and variable errors ValidationError (HTTP 200,
// no `code`); resolver input errors HTTP 200 with `code` 400 and DataHub's message.
import { INJECTIONS, invalidUrns, type Fixtures } from './fixtures.ts';
import { OVERSIZED_BODY } from './rest.ts';

export type GraphqlTarget = 'gateway' | 'subgraph' | 'relay';

export type GraphqlExpectation =
  | { kind: 'http'; status: number; message: RegExp }
  | { kind: 'graphql'; classification: 'ValidationError' | 'InvalidSyntax'; message: RegExp }
  | { kind: 'graphql'; classification: 'DataFetchingException'; code: number; message: RegExp };

export interface GraphqlCase {
  id: string;
  endpoint: string;
  category: string;
  target: GraphqlTarget;
  query?: string;
  variables?: unknown;
  operationName?: unknown;
  raw?: string | Buffer;
  contentType?: string | null;
  expect: GraphqlExpectation;
}

const http = (status: number, message: RegExp): GraphqlExpectation => ({ kind: 'http', status, message });
const syntax = (message: RegExp): GraphqlExpectation => ({ kind: 'graphql', classification: 'InvalidSyntax', message });
const invalid = (message: RegExp): GraphqlExpectation => ({ kind: 'graphql', classification: 'ValidationError', message });
const bad = (message: RegExp, code = 400): GraphqlExpectation => ({
  kind: 'graphql',
  classification: 'DataFetchingException',
  code,
  message,
});

const SCROLL =
  'query s($input: ScrollAcrossLineageInput!) { scrollAcrossLineage(input: $input) { total searchResults { entity { urn } } } }';
const SEARCH =
  'query s($input: SearchAcrossLineageInput!) { searchAcrossLineage(input: $input) { total searchResults { entity { urn } } } }';
const UPDATE = 'mutation u($input: UpdateLineageInput!) { updateLineage(input: $input) }';
const ENTITY = 'query e($urn: String!) { entity(urn: $urn) { urn type } }';
const CREATE_TOKEN = 'mutation c($input: CreateAccessTokenInput!) { createAccessToken(input: $input) { accessToken } }';
const REVOKE_TOKEN = 'mutation r($id: String!) { revokeAccessToken(tokenId: $id) }';

export function graphqlCases(fx: Fixtures): GraphqlCase[] {
  const cases: GraphqlCase[] = [];
  const p = fx.ns.platform;
  const add = (
    endpoint: string,
    category: string,
    id: string,
    req: Omit<GraphqlCase, 'id' | 'endpoint' | 'category' | 'target' | 'expect'> & { target?: GraphqlTarget },
    expect: GraphqlExpectation,
  ) => cases.push({ target: 'gateway', ...req, id: `${endpoint}: ${id}`, endpoint, category, expect });

  // --- Transport (bare 4xx, no envelope), on the gateway, the subgraph and the ingestion relay -------------
  for (const target of ['gateway', 'subgraph', 'relay'] as const) {
    const t = (id: string, req: Omit<GraphqlCase, 'id' | 'endpoint' | 'category' | 'target' | 'expect'>, expect: GraphqlExpectation) =>
      add(`transport (${target})`, 'transport', id, { ...req, target }, expect);
    t('truncated JSON', { raw: '{"query": ' }, http(400, /not valid JSON/));
    t('no query', { raw: '{"variables": {}}' }, http(400, /missing "query"/));
    t('query a number', { raw: '{"query": 5}' }, http(400, /missing "query"/));
    t('query empty', { raw: '{"query": "  "}' }, http(400, /missing "query"/));
    t('body an array', { raw: '[{"query": "{ __typename }"}]' }, http(400, /must be a JSON object/));
    t('variables an array', { raw: '{"query": "{ __typename }", "variables": [1]}' }, http(400, /"variables" must be a JSON object/));
    t('variables a string', { raw: '{"query": "{ __typename }", "variables": "{}"}' }, http(400, /"variables" must be a JSON object/));
    t('operationName a number', { raw: '{"query": "{ __typename }", "operationName": 1}' }, http(400, /"operationName" must be a string/));
    t(
      'text/plain content type',
      { raw: '{"query": "{ __typename }"}', contentType: 'text/plain' },
      http(400, /content type 'text\/plain'/),
    );
    t(
      'form-encoded content type',
      { raw: 'query=%7B__typename%7D', contentType: 'application/x-www-form-urlencoded' },
      http(400, /content type 'application\/x-www-form-urlencoded'/),
    );
    t(
      'deeply nested variables (100k levels)',
      { raw: `{"query": "{ __typename }", "variables": {"x": ${'['.repeat(100_000)}${']'.repeat(100_000)}}}` },
      http(400, /nesting is deeper than 1000/),
    );
    t('body over 16 MiB', { raw: OVERSIZED_BODY }, http(413, /16777216 bytes \(MAX_BODY_BYTES\)/));
    // Issue 30: read leniently, 0xFF 0xFE became U+FFFD and two names one urn.
    t(
      'invalid UTF-8 (0xFF 0xFE) inside a urn',
      {
        raw: Buffer.concat([
          Buffer.from(`{"query": "{ entityExists(urn: \\"urn:li:corpuser:${p}`),
          Buffer.from([0xff, 0xfe]),
          Buffer.from('\\") }"}'),
        ]),
      },
      http(400, /not valid UTF-8/),
    );
  }

  // --- Syntax (InvalidSyntax) ----------------------------------------------------------------------------
  const s = (id: string, query: string, message = /Syntax Error/) => add('syntax', 'syntax', id, { query }, syntax(message));
  s('unclosed selection set', '{');
  s('operation keyword only', 'query {');
  s('unclosed list in an argument', 'mutation { updateLineage(input: {edgesToAdd: [}) }');
  s('unterminated string', '{ entity(urn: "urn:li:corpuser:x) { urn } }');
  s('invalid name start', '{ entity(urn: 123abc) { urn } }');
  s('variable without a type', 'query q($x: ) { __typename }');
  s('empty selection set', '{ }');
  s('NUL character in the document', '{ __typename \u0000 }', /Syntax Error: Unexpected character: U\+0000/);
  s('closing brace first', '}{');
  s('only a comment', '# nothing here', /Syntax Error: Unexpected <EOF>/);
  s('fragment named on', 'fragment on on on { urn } { __typename }');
  s('lone surrogate in the document', '{ __typename \ud800 }', /Syntax Error/);

  // --- Validation (ValidationError) -----------------------------------------------------------------------
  const v = (id: string, query: string, message: RegExp, variables?: unknown, operationName?: string) =>
    add(
      'validation',
      'validation',
      id,
      { query, ...(variables !== undefined ? { variables } : {}), ...(operationName !== undefined ? { operationName } : {}) },
      invalid(message),
    );
  v('unknown root field', '{ dropDatabase }', /Cannot query field "dropDatabase" on type "Query"/);
  v('unknown nested field', `{ dataset(urn: "${fx.a}") { urn password } }`, /Cannot query field "password" on type "Dataset"/);
  v('unknown argument', `{ entity(urn: "${fx.a}", cascade: true) { urn } }`, /Unknown argument "cascade"/);
  v('missing required argument', '{ entity { urn } }', /argument "urn" of type "String!" is required/);
  v('selection on a scalar', `{ entityExists(urn: "${fx.a}") { urn } }`, /must not have a selection/);
  v('object field without selection', `{ entity(urn: "${fx.a}") }`, /must have a selection of subfields/);
  v('string argument given an int literal', '{ entity(urn: 123) { urn } }', /String cannot represent a non string value: 123/);
  v(
    'enum literal unknown',
    `{ scrollAcrossLineage(input: {urn: "${fx.a}", direction: SIDEWAYS}) { total } }`,
    /Value "SIDEWAYS" does not exist in "LineageDirection" enum/,
  );
  v(
    'unknown input field literal',
    `{ scrollAcrossLineage(input: {urn: "${fx.a}", direction: UPSTREAM, cascade: true}) { total } }`,
    /Field "cascade" is not defined by type "ScrollAcrossLineageInput"/,
  );
  v('undefined variable', 'query { entity(urn: $u) { urn } }', /Variable "\$u" is not defined/);
  v('unused variable', 'query q($u: String) { __typename }', /Variable "\$u" is never used/);
  v('unknown fragment', `{ entity(urn: "${fx.a}") { ...Nope } }`, /Unknown fragment "Nope"/);
  v('unknown type condition', `{ entity(urn: "${fx.a}") { ... on Table { urn } } }`, /Unknown type "Table"/);
  v('unknown directive', '{ __typename @cascade }', /Unknown directive "@cascade"/);
  v(
    'duplicate operation names',
    'query a { __typename } query a { __typename }',
    /There can be only one operation named "a"/,
    undefined,
    'a',
  );
  v('two anonymous operations', '{ __typename } { __typename }', /This anonymous operation must be the only defined operation/);
  v('operationName not in the document', 'query a { __typename }', /Unknown operation named "b"/, undefined, 'b');
  v(
    'mutation result without selection',
    'mutation { createAccessToken(input: {type: PERSONAL, actorUrn: "urn:li:corpuser:x", duration: ONE_HOUR, name: "n"}) }',
    /must have a selection of subfields/,
  );
  v(
    'fragment cycle',
    `{ entity(urn: "${fx.a}") { ...A } } fragment A on Entity { ...B } fragment B on Entity { ...A }`,
    /Cannot spread fragment "A" within itself/,
  );
  v('subscription operation', 'subscription { __typename }', /[Ss]ubscription/);
  s('injection after the document', '{ entity(urn: "x") { urn } }}) DETACH DELETE n //', /Syntax Error: Unexpected "}"/);
  v(
    'document nested 5000 levels',
    `{ entity(urn: "x") ${'{ a '.repeat(5000)}${'}'.repeat(5000)} }`,
    /nests more than 100 levels of brackets \(GRAPHQL_MAX_DEPTH is 20\)/,
  );

  // --- Variables (ValidationError) ------------------------------------------------------------------------
  const vv = (id: string, query: string, variables: unknown, message: RegExp) =>
    add('variables', 'variables', id, { query, variables }, invalid(message));
  vv('required variable missing', ENTITY, {}, /Variable "\$urn" of required type "String!" was not provided/);
  vv('required variable null', ENTITY, { urn: null }, /Variable "\$urn" of non-null type "String!" must not be null/);
  vv('String variable given a number', ENTITY, { urn: 42 }, /String cannot represent a non string value/);
  vv('String variable given an object', ENTITY, { urn: { $ne: null } }, /String cannot represent a non string value/);
  vv(
    'Int count given a word',
    SCROLL,
    { input: { urn: fx.a, direction: 'UPSTREAM', count: 'ten' } },
    /Int cannot represent non-integer value: "ten"/,
  );
  vv(
    'Int count given a float',
    SCROLL,
    { input: { urn: fx.a, direction: 'UPSTREAM', count: 1.5 } },
    /Int cannot represent non-integer value: 1.5/,
  );
  vv(
    'Int count beyond 32 bits',
    SCROLL,
    { input: { urn: fx.a, direction: 'UPSTREAM', count: 2 ** 31 } },
    /Int cannot represent non 32-bit signed integer value/,
  );
  vv(
    'Long given a word',
    SCROLL,
    { input: { urn: fx.a, direction: 'UPSTREAM', startTimeMillis: 'yesterday' } },
    /Long cannot represent non-integer value: "yesterday"/,
  );
  vv(
    'Long given a float',
    SCROLL,
    { input: { urn: fx.a, direction: 'UPSTREAM', endTimeMillis: 1.25 } },
    /Long cannot represent non-integer value: 1.25/,
  );
  vv(
    'enum given an unknown value',
    SCROLL,
    { input: { urn: fx.a, direction: 'SIDEWAYS' } },
    /Value "SIDEWAYS" does not exist in "LineageDirection" enum/,
  );
  vv(
    'enum given lowercase',
    SCROLL,
    { input: { urn: fx.a, direction: 'upstream' } },
    /Value "upstream" does not exist in "LineageDirection" enum/,
  );
  vv(
    'EntityType list with an unknown type',
    SCROLL,
    { input: { urn: fx.a, direction: 'UPSTREAM', types: ['TABLE'] } },
    /Value "TABLE" does not exist in "EntityType" enum/,
  );
  vv('input given a string', SCROLL, { input: 'urn' }, /Expected type "ScrollAcrossLineageInput" to be an object/);
  vv(
    'input with an unknown field',
    SCROLL,
    { input: { urn: fx.a, direction: 'UPSTREAM', cascade: true } },
    /Field "cascade" is not defined by type "ScrollAcrossLineageInput"/,
  );
  vv(
    'input without a required field',
    SCROLL,
    { input: { urn: fx.a } },
    /Field "direction" of required type "LineageDirection!" was not provided/,
  );
  vv(
    'filter without field',
    SCROLL,
    { input: { urn: fx.a, direction: 'UPSTREAM', orFilters: [{ and: [{ values: ['1'] }] }] } },
    /Field "field" of required type "String!" was not provided/,
  );
  vv(
    'updateLineage edge missing upstreamUrn',
    UPDATE,
    { input: { edgesToAdd: [{ downstreamUrn: fx.b }], edgesToRemove: [] } },
    /Field "upstreamUrn" of required type "String!" was not provided/,
  );
  vv(
    'updateLineage edgesToAdd an object',
    UPDATE,
    { input: { edgesToAdd: { downstreamUrn: fx.b, upstreamUrn: fx.a, extra: 1 }, edgesToRemove: [] } },
    /Field "extra" is not defined/,
  );
  vv('updateLineage edgesToRemove missing', UPDATE, { input: { edgesToAdd: [] } }, /Field "edgesToRemove" of required type/);
  vv(
    'updateLineage edge urns numbers',
    UPDATE,
    { input: { edgesToAdd: [{ downstreamUrn: 1, upstreamUrn: 2 }], edgesToRemove: [] } },
    /String cannot represent a non string value/,
  );
  vv(
    'createAccessToken unknown duration',
    CREATE_TOKEN,
    { input: { type: 'PERSONAL', actorUrn: 'urn:li:corpuser:x', duration: 'FOREVER', name: 'n' } },
    /Value "FOREVER" does not exist in "AccessTokenDuration" enum/,
  );
  vv(
    'createAccessToken unknown type',
    CREATE_TOKEN,
    { input: { type: 'SESSION', actorUrn: 'urn:li:corpuser:x', duration: 'ONE_DAY', name: 'n' } },
    /Value "SESSION" does not exist in "AccessTokenType" enum/,
  );
  vv(
    'createAccessToken name missing',
    CREATE_TOKEN,
    { input: { type: 'PERSONAL', actorUrn: 'urn:li:corpuser:x', duration: 'ONE_DAY' } },
    /Field "name" of required type "String!" was not provided/,
  );
  vv('revokeAccessToken id a list', REVOKE_TOKEN, { id: ['a', 'b'] }, /String cannot represent a non string value/);
  vv(
    'entities urns with a null',
    'query e($urns: [String!]!) { entities(urns: $urns) { urn } }',
    { urns: [fx.a, null] },
    /Expected non-nullable type "String!" not to be null/,
  );

  // --- Resolver input errors (code 400) -------------------------------------------------------------------------
  const r = (
    endpoint: string,
    id: string,
    query: string,
    variables: unknown,
    message: RegExp,
    category = 'resolver input',
    target: GraphqlTarget = 'gateway',
  ) => add(endpoint, category, id, { query, variables, target }, bad(message));
  const edge = (downstreamUrn: string, upstreamUrn: string) => ({ downstreamUrn, upstreamUrn });
  const quote = (u: string) => new RegExp(`Invalid urn: ${escape(u)}`);
  // updateLineage parses urns by the grammar (its step 1 in §GraphQL); a key of the wrong shape
  // names no entity that can exist, so it fails the existence check (step 3/5), still a 400.
  const missing = (u: string) => new RegExp(`urn ${escape(u)} doesn't exist`);
  for (const u of invalidUrns(p)) {
    r(
      'updateLineage',
      `invalid downstream urn (${u.rule})`,
      UPDATE,
      { input: { edgesToAdd: [edge(u.urn, fx.a)], edgesToRemove: [] } },
      u.keyShape ? missing(u.urn) : quote(u.urn),
      'invalid urn',
    );
  }
  for (const u of invalidUrns(p).filter((_, i) => i % 4 === 0)) {
    r(
      'updateLineage',
      `invalid upstream urn in edgesToRemove (${u.rule})`,
      UPDATE,
      { input: { edgesToAdd: [], edgesToRemove: [edge(fx.b, u.urn)] } },
      u.keyShape ? missing(u.urn) : quote(u.urn),
      'invalid urn',
    );
    r('entity', `invalid urn (${u.rule})`, ENTITY, { urn: u.urn }, quote(u.urn), 'invalid urn');
  }
  // Lineage searches parse the source by the grammar: a well-formed urn without lineage is an empty result
  // (§Lineage search).
  for (const u of invalidUrns(p)
    .filter((x) => !x.keyShape)
    .filter((_, i) => i % 3 === 0)) {
    r(
      'scrollAcrossLineage',
      `invalid urn (${u.rule})`,
      SCROLL,
      { input: { urn: u.urn, direction: 'UPSTREAM' } },
      quote(u.urn),
      'invalid urn',
    );
  }
  for (const u of invalidUrns(p)
    .filter((x) => !x.keyShape)
    .filter((_, i) => i % 3 === 1)) {
    r(
      'searchAcrossLineage',
      `invalid urn (${u.rule})`,
      SEARCH,
      { input: { urn: u.urn, direction: 'DOWNSTREAM' } },
      quote(u.urn),
      'invalid urn',
    );
  }
  for (const u of invalidUrns(p).filter((_, i) => i % 4 === 1)) {
    r(
      'dataset',
      `invalid urn (${u.rule})`,
      'query d($urn: String!) { dataset(urn: $urn) { urn } }',
      { urn: u.urn },
      quote(u.urn),
      'invalid urn',
    );
    r(
      'entityExists',
      `invalid urn (${u.rule})`,
      'query x($urn: String!) { entityExists(urn: $urn) }',
      { urn: u.urn },
      quote(u.urn),
      'invalid urn',
    );
  }
  r(
    'updateLineage',
    'downstream does not exist',
    UPDATE,
    { input: { edgesToAdd: [edge(fx.missing, fx.a)], edgesToRemove: [] } },
    new RegExp(`downstream urn ${escape(fx.missing)} doesn't exist`),
  );
  r(
    'updateLineage',
    'upstream does not exist',
    UPDATE,
    { input: { edgesToAdd: [edge(fx.b, fx.missing)], edgesToRemove: [] } },
    new RegExp(escape(fx.missing)),
  );
  r(
    'updateLineage',
    'unsupported pair chart → dataset',
    UPDATE,
    { input: { edgesToAdd: [edge(fx.b, fx.chart)], edgesToRemove: [] } },
    /non-dataset node when we expect a dataset/,
  );
  r(
    'updateLineage',
    'unsupported pair dataset → dataFlow',
    UPDATE,
    { input: { edgesToAdd: [edge(fx.flow, fx.a)], edgesToRemove: [] } },
    /Unsupported lineage edge/,
  );
  r(
    'updateLineage',
    'valid edge then an invalid one (nothing applied)',
    UPDATE,
    { input: { edgesToAdd: [edge(fx.a, fx.b), edge(fx.b, 'urn:li:dataset:(')], edgesToRemove: [] } },
    /Invalid urn: urn:li:dataset:\(/,
  );
  r(
    'updateLineage',
    'huge edge list ending in an invalid urn (20k)',
    UPDATE,
    { input: { edgesToAdd: [...Array.from({ length: 20_000 }, () => edge(fx.b, fx.a)), edge(fx.b, 'urn:li:x:(')], edgesToRemove: [] } },
    /Invalid urn: urn:li:x:\(/,
    'huge array',
  );
  for (const s of INJECTIONS) {
    r(
      'updateLineage',
      `injection as the entity type: ${s}`,
      UPDATE,
      { input: { edgesToAdd: [edge(`urn:li:${s}:${p}`, fx.a)], edgesToRemove: [] } },
      /Invalid urn/,
      'injection',
    );
  }
  r('scrollAcrossLineage', 'no urn', SCROLL, { input: { direction: 'UPSTREAM' } }, /urn is required/);
  r('scrollAcrossLineage', 'empty urn', SCROLL, { input: { urn: '', direction: 'UPSTREAM' } }, /urn is required/);
  r(
    'scrollAcrossLineage',
    'scrollId not a cursor',
    SCROLL.replace('$input: ScrollAcrossLineageInput!', '$input: ScrollAcrossLineageInput!'),
    { input: { urn: fx.b, direction: 'UPSTREAM', scrollId: 'garbage' } },
    /Invalid scrollId/,
  );
  r(
    'scrollAcrossLineage',
    'scrollId with an injection',
    SCROLL,
    { input: { urn: fx.b, direction: 'UPSTREAM', scrollId: INJECTIONS[0] } },
    /Invalid scrollId/,
    'injection',
  );
  r(
    'scrollAcrossLineage',
    'degree filter value 4',
    SCROLL,
    { input: { urn: fx.b, direction: 'UPSTREAM', orFilters: [{ and: [{ field: 'degree', values: ['4'] }] }] } },
    /4 is not a valid filter value for degree filters/,
  );
  r(
    'scrollAcrossLineage',
    'negative count',
    SCROLL,
    { input: { urn: fx.b, direction: 'UPSTREAM', count: -1 } },
    /count must not be negative/,
  );
  r('searchAcrossLineage', 'no urn', SEARCH, { input: { direction: 'UPSTREAM' } }, /urn is required/);
  r(
    'searchAcrossLineage',
    'negative start',
    SEARCH,
    { input: { urn: fx.b, direction: 'UPSTREAM', start: -5 } },
    /start must not be negative/,
  );
  r(
    'searchAcrossLineage',
    'negative count',
    SEARCH,
    { input: { urn: fx.b, direction: 'UPSTREAM', count: -5 } },
    /count must not be negative/,
  );
  r(
    'searchAcrossLineage',
    'degree filter value with odd Unicode',
    SEARCH,
    { input: { urn: fx.b, direction: 'UPSTREAM', filters: [{ field: 'degree', values: ['1\u200f'] }] } },
    /is not a valid filter value for degree filters/,
    'unicode',
  );
  r(
    'entities',
    'a valid urn then an invalid one',
    'query e($urns: [String!]!) { entities(urns: $urns) { urn } }',
    { urns: [fx.a, 'urn:li:corpuser:'] },
    /Invalid urn: urn:li:corpuser:/,
  );
  r(
    'entity',
    'lineage(input) with a negative count',
    `{ dataset(urn: "${fx.b}") { lineage(input: {direction: UPSTREAM, count: -1}) { total } } }`,
    {},
    /count must not be negative/,
  );
  r(
    'entity',
    'relationships(input) with a negative start',
    `{ dataset(urn: "${fx.b}") { relationships(input: {types: ["DownstreamOf"], direction: OUTGOING, start: -1}) { total } } }`,
    {},
    /start must not be negative/,
  );
  r(
    'createAccessToken',
    'actorUrn invalid',
    CREATE_TOKEN,
    { input: { type: 'PERSONAL', actorUrn: 'urn:li:corpuser:', duration: 'ONE_DAY', name: 'n' } },
    /Invalid urn: urn:li:corpuser:/,
  );
  r(
    'createAccessToken',
    'actorUrn not a corpuser',
    CREATE_TOKEN,
    { input: { type: 'PERSONAL', actorUrn: fx.a, duration: 'ONE_DAY', name: 'n' } },
    /actorUrn must be a corpuser urn/,
  );
  r(
    'createAccessToken',
    'actorUrn with a lone surrogate',
    CREATE_TOKEN,
    { input: { type: 'PERSONAL', actorUrn: `urn:li:corpuser:${p}\ud800`, duration: 'ONE_DAY', name: 'n' } },
    /Invalid urn/,
    'unicode',
  );
  r('revokeAccessToken', 'empty token id', REVOKE_TOKEN, { id: '' }, /Invalid token id/);
  r('revokeAccessToken', 'token id with parentheses', REVOKE_TOKEN, { id: 'ab(c' }, /Invalid token id/);
  r('revokeAccessToken', 'token id with an injection', REVOKE_TOKEN, { id: INJECTIONS[0] }, /Invalid token id/, 'injection');

  // The same kinds of mistakes sent straight to the subgraph and through the ingestion relay.
  for (const target of ['subgraph', 'relay'] as const) {
    add(`syntax (${target})`, 'syntax', 'unclosed selection set', { query: '{', target }, syntax(/Syntax Error/));
    add(
      `validation (${target})`,
      'validation',
      'unknown field',
      { query: '{ dropDatabase }', target },
      invalid(/Cannot query field "dropDatabase"/),
    );
    add(
      `variables (${target})`,
      'variables',
      'enum given an unknown value',
      { query: SCROLL, variables: { input: { urn: fx.a, direction: 'SIDEWAYS' } }, target },
      invalid(/SIDEWAYS/),
    );
    r(
      `updateLineage (${target})`,
      'invalid urn',
      UPDATE,
      { input: { edgesToAdd: [edge('urn:li:dataset:(', fx.a)], edgesToRemove: [] } },
      /Invalid urn: urn:li:dataset:\(/,
      'invalid urn',
      target,
    );
    r(
      `scrollAcrossLineage (${target})`,
      'no urn',
      SCROLL,
      { input: { direction: 'UPSTREAM' } },
      /urn is required/,
      'resolver input',
      target,
    );
  }
  return cases;
}

function escape(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
