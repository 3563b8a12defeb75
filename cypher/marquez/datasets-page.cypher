// Purpose: one page of the datasets of a Marquez namespace (docs/marquez-compatibility.md §Datasets): existing
// PROD datasets of the platform, for an object store's namespace those whose name starts with its
// bucket, for the bare platform of an object store those with no bucket; in name order, with the total.
// Params: $platform: string (platform urn), $bucket: string|null, $bucketed: boolean (the platform
//         is an object store), $skip: int, $limit: int
// Returns: total: int, page: [string] (dataset urns)
MATCH (n:Entity)
WHERE n.entityType = 'dataset' AND n.platform = $platform AND n.exists AND NOT coalesce(n.removed, false) AND n.origin = 'PROD'
  AND CASE
        WHEN $bucket IS NOT NULL THEN n.name STARTS WITH $bucket + '/'
        WHEN $bucketed THEN n.name STARTS WITH '/' OR NOT n.name CONTAINS '/'
        ELSE true
      END
WITH n ORDER BY n.name, n.urn
WITH collect(n.urn) AS urns
RETURN size(urns) AS total, urns[$skip..$skip + $limit] AS page
