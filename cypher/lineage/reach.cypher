// Purpose: fast path of impact analysis, {{direction}} from $urn, at most {{bound}} hops (the max
// family's bound is LINEAGE_MAX_HOPS' largest value: var-length bounds cannot be parameters, $maxHops
// cuts lower caps). One breadth-first pruning var-expand (VarLengthExpand(Pruning,BFS)): each node is visited once and
// min(length(p)) is its BFS depth = minimum degree. The time-window test (the -windowed expansions;
// lineage/edge-in-window.cypher, inlined)
// must stay INSIDE all(): a test outside the quantifier defeats the BFS rewrite (checked by EXPLAIN in
// test/lineage/plans.test.ts). Ghosts and soft-deleted nodes are walked through, filtered after.
// A schemaField's existence is its parent dataset's; field rows carry the parent for lifting.
// Template: catalog/src/store/cypher.ts expands it per direction, depth bound and walk into
// lineage/reach-<down|up>-<1|2|max>[-windowed].
// Params: $urn, $start, $end: epoch ms (the -windowed expansions),
//         $maxHops: int (configured cap <= the literal bound), $includeSoftDeleted: boolean,
//         $includeGhosts: boolean (every reached node, ghosts and soft-deleted ones too: counts),
//         $limit: int (LINEAGE_MAX_RESULTS + 1: one more row tells the caller it was cut)
// Returns: urn, degree, entityType, platform, origin, name, description, removed, ownExists (the node's own
//          key row, not its parent's), parentUrn,
//          parent: {urn, entityType, platform, origin, name, description} | null (schemaFields)
MATCH (s:Entity {urn: $urn})
MATCH p = (s){{<}}-[rs:LINEAGE*1..{{bound}}]-{{>}}(n:Entity)
{{#windowed}}
WHERE all(r IN rs WHERE {{edgeInWindow:r}})
{{/windowed}}
WITH n, min(length(p)) AS degree
WHERE degree <= $maxHops AND n.urn <> $urn
OPTIONAL MATCH (parent:Entity {urn: n.parentUrn})
WITH n, degree, CASE WHEN n.entityType = 'schemaField' THEN parent ELSE n END AS e
WHERE $includeGhosts OR (e IS NOT NULL AND e.exists = true AND ($includeSoftDeleted OR NOT coalesce(e.removed, false)))
RETURN n.urn AS urn, degree, n.entityType AS entityType, e.platform AS platform, e.origin AS origin,
       n.name AS name, n.description AS description, coalesce(e.removed, false) AS removed,
       coalesce(n.exists, false) AS ownExists, n.parentUrn AS parentUrn,
       CASE WHEN n.entityType = 'schemaField' AND e IS NOT NULL THEN {urn: e.urn, entityType: e.entityType, platform: e.platform,
         origin: e.origin, name: e.name, description: e.description} END AS parent
ORDER BY degree, urn
LIMIT $limit
