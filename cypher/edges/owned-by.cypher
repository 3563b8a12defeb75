// Purpose: every edge (typed and LINEAGE) owned by some (owner, aspect) pairs, found through the
// per-type owner indexes — also the edges no stored row justifies (drift, bogus writes). One
// branch per relationship type of RELATIONSHIP_TYPES (catalog/src/model/entity-types.ts), plus
// LINEAGE; test/cypher/statements.test.ts checks the list matches. $aspect null = every aspect of
// the owner (hard delete).
// Params: $rows: [{owner: string, aspect: string|null}]
// Returns: owner, aspect, type, key, source, destination, createdOn, createdActor, updatedOn,
//          updatedActor, properties, via, manual, lineageType
UNWIND $rows AS row
CALL (row) {
  MATCH (a)-[r:DownstreamOf {owner: row.owner}]->(b) RETURN r, a, b
  UNION ALL MATCH (a)-[r:Consumes {owner: row.owner}]->(b) RETURN r, a, b
  UNION ALL MATCH (a)-[r:Produces {owner: row.owner}]->(b) RETURN r, a, b
  UNION ALL MATCH (a)-[r:IsPartOf {owner: row.owner}]->(b) RETURN r, a, b
  UNION ALL MATCH (a)-[r:Contains {owner: row.owner}]->(b) RETURN r, a, b
  UNION ALL MATCH (a)-[r:DashboardContainsDashboard {owner: row.owner}]->(b) RETURN r, a, b
  UNION ALL MATCH (a)-[r:DerivedFrom {owner: row.owner}]->(b) RETURN r, a, b
  UNION ALL MATCH (a)-[r:KeyedBy {owner: row.owner}]->(b) RETURN r, a, b
  UNION ALL MATCH (a)-[r:TrainedBy {owner: row.owner}]->(b) RETURN r, a, b
  UNION ALL MATCH (a)-[r:UsedBy {owner: row.owner}]->(b) RETURN r, a, b
  UNION ALL MATCH (a)-[r:MemberOf {owner: row.owner}]->(b) RETURN r, a, b
  UNION ALL MATCH (a)-[r:DeployedTo {owner: row.owner}]->(b) RETURN r, a, b
  UNION ALL MATCH (a)-[r:DataProcessInstanceConsumes {owner: row.owner}]->(b) RETURN r, a, b
  UNION ALL MATCH (a)-[r:DataProcessInstanceProduces {owner: row.owner}]->(b) RETURN r, a, b
  UNION ALL MATCH (a)-[r:InstanceOf {owner: row.owner}]->(b) RETURN r, a, b
  UNION ALL MATCH (a)-[r:ChildOf {owner: row.owner}]->(b) RETURN r, a, b
  UNION ALL MATCH (a)-[r:UpstreamOf {owner: row.owner}]->(b) RETURN r, a, b
  UNION ALL MATCH (a)-[r:consumesField {owner: row.owner}]->(b) RETURN r, a, b
  UNION ALL MATCH (a)-[r:TaggedWith {owner: row.owner}]->(b) RETURN r, a, b
  UNION ALL MATCH (a)-[r:TermedWith {owner: row.owner}]->(b) RETURN r, a, b
  UNION ALL MATCH (a)-[r:OwnedBy {owner: row.owner}]->(b) RETURN r, a, b
  UNION ALL MATCH (a)-[r:SchemaFieldTaggedWith {owner: row.owner}]->(b) RETURN r, a, b
  UNION ALL MATCH (a)-[r:SchemaFieldWithGlossaryTerm {owner: row.owner}]->(b) RETURN r, a, b
  UNION ALL MATCH (a)-[r:LINEAGE {owner: row.owner}]->(b) RETURN r, a, b
}
WITH row, r, a, b WHERE row.aspect IS NULL OR r.aspect = row.aspect
RETURN r.owner AS owner, r.aspect AS aspect, type(r) AS type, r.key AS key, a.urn AS source, b.urn AS destination,
       r.createdOn AS createdOn, r.createdActor AS createdActor, r.updatedOn AS updatedOn, r.updatedActor AS updatedActor,
       r.properties AS properties, r.via AS via, r.manual AS manual, r.type AS lineageType
