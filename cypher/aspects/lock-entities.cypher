// Purpose: serialize writers of the same entities. MERGE creates missing nodes (a new entity's node
// is needed anyway), and SET of an unchanged property still takes the node's exclusive lock, which
// is held until commit. Callers pass urns sorted, so lock order is global and deadlocks are rare.
// Params: $rows: [{urn: string, entityType: string, label: string}]
// Returns: nothing
UNWIND $rows AS row
MERGE (n:Entity {urn: row.urn})
  ON CREATE SET n.entityType = row.entityType, n.exists = false, n.removed = false
SET n:$(row.label)
SET n.urn = n.urn
