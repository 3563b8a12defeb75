// Purpose: one page of entities in urn order, each with every stored aspect row (all versions),
// for the logical export (docs/operations.md §Export). Keyset paging on the entity_urn constraint's
// index: whole-store scans never SKIP. The page is cut before the LIKE pattern filters, so `last`
// (where the next page starts) moves on even when no entity of a page matches. Entities without
// rows (ghost endpoints of edges) are left out: restoreIndices re-creates them from the rows
// that name them.
// Params: $after: string ('' for the first page), $lower, $upper: string (the urn range of the
//         pattern's literal prefix), $regex: string (the whole pattern), $limit: int
// Returns: last (string|null: the page's last urn, null when the scan is done),
//          entities [{urn, entityType, rows [{name, version, maxVersion, value, systemMetadata, createdOn, createdBy}]}]
MATCH (e:Entity)
WHERE e.urn > $after AND e.urn >= $lower AND e.urn < $upper
WITH e ORDER BY e.urn LIMIT $limit
WITH collect(e) AS page
RETURN CASE WHEN size(page) = 0 THEN null ELSE page[size(page) - 1].urn END AS last,
       [e IN page WHERE e.urn =~ $regex |
          {urn: e.urn, entityType: e.entityType,
           rows: [(e)-[:HAS_ASPECT]->(a:Aspect) | a {.name, .version, .maxVersion, .value, .systemMetadata, .createdOn, .createdBy}]}] AS entities
