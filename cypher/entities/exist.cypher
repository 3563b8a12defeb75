// Purpose: which of some urns exist, i.e. have a latest key-aspect row (docs/lineage-model.md §Existence).
// Params: $rows: [{urn: string, keyRow: string}]   keyRow = "<urn>\u241f<keyAspect>\u241f0"
// Returns: urn, exists, removed
UNWIND $rows AS row
OPTIONAL MATCH (a:Aspect {key: row.keyRow})
OPTIONAL MATCH (n:Entity {urn: row.urn})
RETURN row.urn AS urn, a IS NOT NULL AS exists, coalesce(n.removed, false) AS removed
