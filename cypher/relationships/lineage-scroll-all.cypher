// Purpose: one keyset page of every lineage edge of the graph (POST /openapi/v3/lineage/scroll
// without urns). Walks the derived :LINEAGE edges (upstream -> downstream) in upstream-urn order,
// starting at the cursor through the urn index rather than skipping; the typed edge is read back
// to tell its source from its destination. Rows are raw (parallel edges repeat, adjacent in the
// order): the caller collapses them.
// Params: $types: [string] typed edge names (empty = every lineage type), $includeSoftDelete:
//         boolean, $fromUpstream: string (the cursor's upstream urn, '' on the first page),
//         $after: null | [upstream, downstream, type] (exclusive keyset cursor), $limit: int
// Returns: upstream, downstream, type, upstreamType, downstreamType,
//          upstreamIsSource: boolean | null (null: no typed edge with the key, i.e. drift)
MATCH (up:Entity)-[l:LINEAGE]->(down:Entity)
WHERE up.urn >= $fromUpstream
  AND (size($types) = 0 OR l.type IN $types)
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
