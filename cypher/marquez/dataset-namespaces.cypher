// Purpose: the dataset namespaces Marquez's API lists (docs/marquez-compatibility.md §Namespaces): existing PROD
// datasets grouped by platform and, for the object stores of $bucketPlatforms, by the bucket that
// starts their name; with when each group was first and last written.
// Params: $bucketPlatforms: [string] (platform names, e.g. 's3')
// Returns: platform: string (platform urn), bucket: string|null, createdOn: int, updatedOn: int
MATCH (n:Entity)
WHERE n.entityType = 'dataset' AND n.exists AND NOT coalesce(n.removed, false) AND n.origin = 'PROD'
WITH n, CASE WHEN any(p IN $bucketPlatforms WHERE n.platform = 'urn:li:dataPlatform:' + p)
                  AND NOT n.name STARTS WITH '/' AND n.name CONTAINS '/'
             THEN split(n.name, '/')[0] END AS bucket
MATCH (n)-[:HAS_ASPECT]->(a:Aspect {version: 0})
RETURN n.platform AS platform, bucket, min(a.createdOn) AS createdOn, max(a.createdOn) AS updatedOn
ORDER BY platform, bucket
