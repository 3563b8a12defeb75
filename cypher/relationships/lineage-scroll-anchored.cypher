// Purpose: one keyset page of the lineage edges touching some entities (POST /openapi/v3/lineage/scroll
// with urns). Found through the derived :LINEAGE edges (upstream -> downstream), which carry the
// typed edge's type and key; the typed edge itself is read back to tell its source from its
// destination. An edge between two anchors is one row (DISTINCT before LIMIT, so a short page
// means the end); parallel edges stay separate rows, adjacent in the order: the caller collapses them.
// Params: $urns: [string] anchors, $direction: 'UPSTREAM' (edges whose downstream end is an anchor)
//         | 'DOWNSTREAM' (upstream end is an anchor) | null (either), $types: [string] typed edge
//         names (empty = every lineage type), $includeSoftDelete: boolean, $after: null |
//         [upstream, downstream, type] (exclusive keyset cursor), $limit: int
// Returns: upstream, downstream, type, upstreamType, downstreamType,
//          upstreamIsSource: boolean | null (null: no typed edge with the key, i.e. drift)
UNWIND $urns AS anchor
MATCH (a:Entity {urn: anchor})
CALL (a) {
  MATCH (a)-[l:LINEAGE]->(d:Entity)
  WHERE $direction IS NULL OR $direction = 'DOWNSTREAM'
  RETURN a AS up, l, d AS down
  UNION ALL
  MATCH (u:Entity)-[l:LINEAGE]->(a)
  WHERE $direction IS NULL OR $direction = 'UPSTREAM'
  RETURN u AS up, l, a AS down
}
WITH DISTINCT up, l, down
WHERE (size($types) = 0 OR l.type IN $types)
  AND ($includeSoftDelete OR (NOT coalesce(up.removed, false) AND NOT coalesce(down.removed, false)))
  AND ($after IS NULL OR up.urn > $after[0]
       OR (up.urn = $after[0] AND (down.urn > $after[1] OR (down.urn = $after[1] AND l.type > $after[2]))))
WITH up, l, down
ORDER BY up.urn, down.urn, l.type
LIMIT $limit
OPTIONAL MATCH (up)-[t]-(down) WHERE type(t) = l.type AND t.key = l.key
WITH up, l, down, head(collect(startNode(t) = up)) AS upstreamIsSource
RETURN up.urn AS upstream, down.urn AS downstream, l.type AS type, up.entityType AS upstreamType,
       down.entityType AS downstreamType, upstreamIsSource
ORDER BY upstream, downstream, type
