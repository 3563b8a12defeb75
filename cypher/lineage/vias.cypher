// Purpose: the via entities (queries aside) of the lineage edges leaving some nodes of a column walk,
// {{stream}}: the dataJob whose fineGrainedLineages made a column edge is a result of the walk,
// at the degree of the column it leads to (docs/lineage-model.md §Paths). Edges pass the
// time window as in every lineage statement (lineage/edge-in-window.cypher).
// Template: catalog/src/store/cypher.ts expands it per direction into lineage/vias-<down|up>.
// Params: $parents: [urn], $unwindowed: boolean, $start, $end: epoch ms, $includeSoftDeleted: boolean
// Returns: parent, child, urn, entityType, platform, origin, name, description, removed
UNWIND $parents AS p
MATCH (u:Entity {urn: p}){{<}}-[r:LINEAGE]-{{>}}(n:Entity)
WHERE r.via IS NOT NULL AND n <> u AND ($unwindowed OR {{edgeInWindow:r}})
MATCH (v:Entity {urn: r.via})
WHERE v.entityType <> 'query' AND v.exists = true AND ($includeSoftDeleted OR NOT coalesce(v.removed, false))
RETURN DISTINCT u.urn AS parent, n.urn AS child, v.urn AS urn, v.entityType AS entityType, v.platform AS platform,
       v.origin AS origin, v.name AS name, v.description AS description, coalesce(v.removed, false) AS removed
