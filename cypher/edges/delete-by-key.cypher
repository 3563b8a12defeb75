// Purpose: delete owned edges (typed and their derived LINEAGE twins) by key. Anchored on the two
// end nodes (an Expand(Into)), so no relationship scan. A LINEAGE twin joins the same two nodes,
// in either direction.
// Params: $rows: [{source: string, destination: string, key: string}]
// Returns: deleted
UNWIND $rows AS row
MATCH (a:Entity {urn: row.source})
MATCH (b:Entity {urn: row.destination})
OPTIONAL MATCH (a)-[r]-(b) WHERE r.key = row.key
WITH row, collect(DISTINCT r) AS rels
FOREACH (r IN rels | DELETE r)
RETURN sum(size(rels)) AS deleted
