// Purpose: single hop for `lineage(input)`: each {{stream}} lineage edge of $urn with the
// provenance of its typed edge (same key; the derived :LINEAGE copy carries no actors). Ghost and
// soft-deleted neighbours are returned flagged; the service filters and counts them.
// Template: catalog/src/store/cypher.ts expands it per direction into lineage/neighbours-<down|up>.
// Params: $urn, $unwindowed: boolean, $start, $end: epoch ms
// Returns: type, urn, entityType, exists, removed (of the existence subject: a schemaField's parent),
//          createdOn, createdActor, updatedOn, updatedActor, manual
MATCH (a:Entity {urn: $urn}){{<}}-[l:LINEAGE]-{{>}}(n:Entity)
WHERE n <> a AND ($unwindowed OR {{edgeInWindow:l}})
OPTIONAL MATCH (a)-[t]-(n) WHERE t.key = l.key AND type(t) <> 'LINEAGE'
OPTIONAL MATCH (parent:Entity {urn: n.parentUrn})
WITH l, t, n, CASE WHEN n.entityType = 'schemaField' THEN parent ELSE n END AS e
RETURN l.type AS type, n.urn AS urn, n.entityType AS entityType, coalesce(e.exists, false) AS exists,
       coalesce(e.removed, false) AS removed, t.createdOn AS createdOn, t.createdActor AS createdActor,
       t.updatedOn AS updatedOn, t.updatedActor AS updatedActor, coalesce(l.manual, false) AS manual
ORDER BY urn, type
