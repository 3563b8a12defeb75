// What the malformed-request corpus aims at: a namespace with a few real entities (so requests
// fail for the reason under test, not because their target is missing), urn builders, and the
// list of invalid urns — one per rule of the urn grammar and key shapes (docs/lineage-model.md §Entity types).
import { namespace } from '../../support/context.ts';

export type Namespace = ReturnType<typeof namespace>;

export interface Fixtures {
  ns: Namespace;
  /** Existing datasets; b has a as upstream. */
  a: string;
  b: string;
  /** An existing chart with chartInfo, an existing dataFlow and dataJob. */
  chart: string;
  flow: string;
  job: string;
  /** A well-formed dataset urn nothing was ingested for. */
  missing: string;
}

export function fixturesOf(ns: Namespace): Fixtures {
  const flow = ns.flow('flow');
  return {
    ns,
    a: ns.dataset('a'),
    b: ns.dataset('b'),
    chart: ns.chart('c'),
    flow,
    job: ns.job(flow, 'job'),
    missing: ns.dataset('missing'),
  };
}

export interface InvalidUrn {
  rule: string;
  urn: string;
  /** What the error message must say (the rule), besides quoting the urn. */
  reason: RegExp;
  /**
   * Grammatical, but the key does not fit the entity type (§Entity types). Such a urn is rejected where a
   * write or an entity read needs its key; a lookup (GET, search) just finds nothing.
   */
  keyShape?: true;
}

/** One urn per grammar/key rule. Each carries the namespace marker where the rule allows it. */
export function invalidUrns(p: string): InvalidUrn[] {
  const platform = `urn:li:dataPlatform:${p}`;
  return [
    { rule: "does not start with 'urn:'", urn: `li:dataset:(${platform},t,PROD)`, reason: /doesn't start with 'urn:'/ },
    { rule: 'no entity type', urn: `urn:${p}`, reason: /missing namespace or entity type/ },
    { rule: 'uppercase namespace', urn: `urn:LI:dataset:(${platform},t,PROD)`, reason: /invalid namespace/ },
    { rule: 'empty namespace', urn: `urn::dataset:(${platform},t,PROD)`, reason: /invalid namespace/ },
    { rule: 'namespace over 32 characters', urn: `urn:${'n'.repeat(33)}:dataset:(${platform},t,PROD)`, reason: /invalid namespace/ },
    { rule: 'entity type starting uppercase', urn: `urn:li:Dataset:(${platform},t,PROD)`, reason: /invalid entity type/ },
    { rule: 'entity type with a dash', urn: `urn:li:data-set:(${platform},t,PROD)`, reason: /invalid entity type/ },
    { rule: 'empty entity type', urn: `urn:li::(${platform},t,PROD)`, reason: /invalid entity type/ },
    { rule: 'empty key', urn: 'urn:li:dataset:', reason: /empty entityKey/ },
    { rule: 'unclosed tuple', urn: `urn:li:dataset:(${platform},t,PROD`, reason: /mismatched paren nesting/ },
    { rule: 'extra closing paren', urn: `urn:li:dataset:(${platform},t,PROD))`, reason: /mismatched paren nesting/ },
    { rule: 'tuple followed by text', urn: `urn:li:dataset:(${platform},t,PROD)x`, reason: /mismatched paren nesting/ },
    { rule: 'empty first part', urn: `urn:li:dataset:(,${p},PROD)`, reason: /empty part disallowed/ },
    { rule: 'empty middle part', urn: `urn:li:dataset:(${platform},,PROD)`, reason: /empty part disallowed/ },
    { rule: 'empty last part', urn: `urn:li:dataset:(${platform},t,)`, reason: /empty part disallowed/ },
    { rule: 'unbalanced single-part key', urn: `urn:li:corpuser:${p}(x`, reason: /mismatched paren nesting/ },
    { rule: 'close before open in a single-part key', urn: `urn:li:corpuser:${p})x(`, reason: /mismatched paren nesting/ },
    { rule: 'wrong number of key parts', urn: `urn:li:dataset:(${platform},t)`, reason: /expected 3 key parts/, keyShape: true },
    { rule: 'origin not a FabricType', urn: `urn:li:dataset:(${platform},t,PRODUCTION)`, reason: /not a FabricType/, keyShape: true },
    { rule: 'platform part not a urn', urn: `urn:li:dataset:(${p},t,PROD)`, reason: /platform/, keyShape: true },
    {
      rule: 'platform part a urn of another type',
      urn: `urn:li:dataset:(urn:li:corpuser:${p},t,PROD)`,
      reason: /not a dataPlatform urn/,
      keyShape: true,
    },
    {
      rule: 'nested urn part invalid',
      urn: `urn:li:dataJob:(urn:li:dataFlow:(${p},,PROD),task)`,
      reason: /empty part disallowed/,
      keyShape: true,
    },
    { rule: 'empty part of a modelled key', urn: `urn:li:chart:(${p},)`, reason: /empty part disallowed/ },
    { rule: 'lone surrogate', urn: `urn:li:corpuser:${p}\ud800x`, reason: /unpaired surrogate/ },
    { rule: 'NUL character', urn: `urn:li:corpuser:${p}\u0000x`, reason: /control character/ },
    { rule: 'newline character', urn: `urn:li:corpuser:${p}\nx`, reason: /control character/ },
    // Issue 30: what reached Neo4j (or was stored as another name) before.
    { rule: 'BEL in a dataset name', urn: `urn:li:dataset:(${platform},a\u0007b,PROD)`, reason: /control character/ },
    { rule: 'unpaired low surrogate in a dataset name', urn: `urn:li:dataset:(${platform},a\udc00,PROD)`, reason: /unpaired surrogate/ },
    { rule: "a name of only '/'", urn: `urn:li:dataset:(${platform},/,PROD)`, reason: /a name of only '\/' is not allowed/ },
    { rule: 'a 10 KB urn', urn: `urn:li:dataset:(${platform},${'n'.repeat(10 * 1024)},PROD)`, reason: /longer than 4096 bytes/ },
  ];
}

/** Strings aimed at Cypher or JSON-pointer interpretation. */
export const INJECTIONS = [
  "'}) DETACH DELETE n //",
  '"}) MATCH (n) DETACH DELETE n //',
  '`Entity`) DETACH DELETE n //',
  '$(x)',
  '${x}',
  '\\u0027}) RETURN 1 //',
] as const;
