// Purpose: the runs of a data job (or data flow) — the dataProcessInstances whose
// dataProcessInstanceRelationships.parentTemplate names it (:InstanceOf) — with the latest
// properties and run event of each, for the explorer's details sheet (Marquez's run history).
// Params: $urn: string (the job), $propertiesSuffix: string, $runEventSuffix: string (aspect row key
//         suffixes "␟<aspect>␟0"), $limit: int (runs read, by most recently written)
// Returns: urn: string, properties: string|null (JSON), runEvent: string|null (JSON), writtenOn: int|null
MATCH (:Entity {urn: $urn})<-[:InstanceOf]-(r:Entity)
WHERE r.entityType = 'dataProcessInstance' AND r.exists AND NOT coalesce(r.removed, false)
OPTIONAL MATCH (p:Aspect {key: r.urn + $propertiesSuffix})
OPTIONAL MATCH (ev:Aspect {key: r.urn + $runEventSuffix})
WITH r, p, ev, coalesce(ev.createdOn, p.createdOn) AS writtenOn
ORDER BY writtenOn DESC, r.urn
LIMIT $limit
RETURN r.urn AS urn, p.value AS properties, ev.value AS runEvent, writtenOn
