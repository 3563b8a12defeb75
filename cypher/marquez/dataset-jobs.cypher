// Purpose: the jobs that write or read a dataset, writers first, most recently reported first: where
// Marquez's lineage of a dataset starts (docs/marquez-compatibility.md §Lineage).
// Params: $urn: string (the dataset)
// Returns: urn: string (a dataJob), updatedOn: int|null
MATCH (:Entity {urn: $urn})<-[r:Consumes|Produces]-(j:Entity)
WHERE j.entityType = 'dataJob' AND j.exists AND NOT coalesce(j.removed, false)
WITH j, max(CASE WHEN type(r) = 'Produces' THEN 1 ELSE 0 END) AS writes, max(r.updatedOn) AS updatedOn
RETURN j.urn AS urn, updatedOn
ORDER BY writes DESC, updatedOn DESC, urn
