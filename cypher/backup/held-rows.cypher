// Purpose: the held rows of one page of the export's scan (backup/scan-entities): rows deleted after
// the export's moment that existed at it, for urns in ($after, $last] ($last null: to the end of
// the range), in urn order.
// Params: $after: string, $last: string|null, $lower, $upper, $regex: string (the scan's urn
//         range and pattern), $asOf: epoch ms
// Returns: urn, entityType, row {name, version, maxVersion, value, systemMetadata, createdOn, createdBy}
MATCH (r:HeldRow)
WHERE r.urn > $after AND r.urn >= $lower AND r.urn < $upper AND ($last IS NULL OR r.urn <= $last)
  AND r.urn =~ $regex AND r.deletedOn > $asOf AND coalesce(r.createdOn, 0) <= $asOf
RETURN r.urn AS urn, r.entityType AS entityType,
       r {.name, .version, .maxVersion, .value, .systemMetadata, .createdOn, .createdBy} AS row
ORDER BY urn
