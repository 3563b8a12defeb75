// Purpose: the jobs the OpenLineage door wrote (their dataJobInfo names an OpenLineage namespace),
// all of them or those whose name search field is $name, with that info and when the job was first
// and last written (docs/marquez-compatibility.md §Jobs). The namespace is read from the info by the caller.
// Params: $name: string|null (the job name as the urn spells it), $infoSuffix: string (the row key
//         suffix "␟dataJobInfo␟0")
// Returns: urn: string, info: string (JSON), createdOn: int, updatedOn: int — by urn
MATCH (n:Entity)
WHERE n.entityType = 'dataJob' AND ($name IS NULL OR n.name = $name) AND n.exists AND NOT coalesce(n.removed, false)
MATCH (i:Aspect {key: n.urn + $infoSuffix})
WHERE i.value CONTAINS '"openlineage.namespace"'
MATCH (n)-[:HAS_ASPECT]->(a:Aspect {version: 0})
RETURN n.urn AS urn, i.value AS info, min(a.createdOn) AS createdOn, max(a.createdOn) AS updatedOn
ORDER BY urn
