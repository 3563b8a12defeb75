// Purpose: the tags, glossary terms, owners and domains of some entities a lineage walk reached, for
// a filter on them or their facets (catalog/src/read/lineage/listed.ts; docs/wire-contract.md
// §Filters). Read as catalogue search reads them (cypher/search/entities): tags, terms and owners
// from their derived edges, domains from the latest `domains` aspect row (a JSON list of domain
// urns, which hold no quote: the quoted pieces that are domain urns). Only the fields named by
// $lists are read; the others answer []. One indexed lookup per urn: never a scan.
// Params: $urns: [string] (distinct), $lists: {tags: boolean, glossaryTerms: boolean, owners: boolean, domains: boolean}
// Returns: urn, tags: [urn], glossaryTerms: [urn], owners: [urn], domains: [urn] — each list without
//          repeats; one row per urn that has a node
UNWIND $urns AS u
MATCH (n:Entity {urn: u})
RETURN u AS urn,
       CASE WHEN $lists.tags THEN reduce(l = [], x IN [(n)-[:TaggedWith]->(t) | t.urn] | CASE WHEN x IN l THEN l ELSE l + x END) ELSE [] END AS tags,
       CASE WHEN $lists.glossaryTerms THEN reduce(l = [], x IN [(n)-[:TermedWith]->(t) | t.urn] | CASE WHEN x IN l THEN l ELSE l + x END) ELSE [] END AS glossaryTerms,
       CASE WHEN $lists.owners THEN reduce(l = [], x IN [(n)-[:OwnedBy]->(o) | o.urn] | CASE WHEN x IN l THEN l ELSE l + x END) ELSE [] END AS owners,
       CASE WHEN $lists.domains THEN reduce(l = [], v IN [(n)-[:HAS_ASPECT]->(a:Aspect {name: 'domains', version: 0}) | a.value] |
         l + [p IN split(v, '"') WHERE p STARTS WITH 'urn:li:domain:' AND NOT p IN l]) ELSE [] END AS domains
