// Constraints and indexes, applied idempotently at every start (IF NOT EXISTS).
// Entities: one node per urn; aspects: one node per (urn, aspect, version).
CREATE CONSTRAINT entity_urn IF NOT EXISTS FOR (n:Entity) REQUIRE n.urn IS UNIQUE;
CREATE CONSTRAINT aspect_key IF NOT EXISTS FOR (a:Aspect) REQUIRE a.key IS UNIQUE;
CREATE INDEX entity_type IF NOT EXISTS FOR (n:Entity) ON (n.entityType);
// Impact analysis turns the facetKeys it counted back into (type, platform, origin): lineage/facet-values.
CREATE INDEX entity_facet_key IF NOT EXISTS FOR (n:Entity) ON (n.facetKey);
// Write generation shards (aspects/bump-generation): one node per shard.
CREATE CONSTRAINT write_generation_shard IF NOT EXISTS FOR (g:WriteGeneration) REQUIRE g.shard IS UNIQUE;
// restoreIndices scans latest rows in (urn, name) order.
CREATE INDEX aspect_latest IF NOT EXISTS FOR (a:Aspect) ON (a.version, a.urn, a.name);
CREATE INDEX aspect_name IF NOT EXISTS FOR (a:Aspect) ON (a.name);
// entity_search_v1 indexed the raw urn, whose colon-joined words the analyzer keeps as one token.
DROP INDEX entity_search IF EXISTS;
// entity_search_v2 ran the standard analyzer over name, description and urn words, which keeps
// fct_orders and db.schema.t whole. v3 indexes only searchText, whose words the catalog splits itself
// as DataHub's analyzer does (catalog/src/model/search-analyzer.ts), so whitespace is all Lucene splits.
DROP INDEX entity_search_v2 IF EXISTS;
CREATE FULLTEXT INDEX entity_search_v3 IF NOT EXISTS FOR (n:Entity) ON EACH [n.searchText]
  OPTIONS {indexConfig: {`fulltext.analyzer`: 'whitespace'}};
// Edges are owned by (owner urn, aspect): restore and hard delete find them through these.
CREATE INDEX rel_owner_DownstreamOf IF NOT EXISTS FOR ()-[r:DownstreamOf]-() ON (r.owner);
CREATE INDEX rel_owner_Consumes IF NOT EXISTS FOR ()-[r:Consumes]-() ON (r.owner);
CREATE INDEX rel_owner_Produces IF NOT EXISTS FOR ()-[r:Produces]-() ON (r.owner);
CREATE INDEX rel_owner_IsPartOf IF NOT EXISTS FOR ()-[r:IsPartOf]-() ON (r.owner);
CREATE INDEX rel_owner_Contains IF NOT EXISTS FOR ()-[r:Contains]-() ON (r.owner);
CREATE INDEX rel_owner_DashboardContainsDashboard IF NOT EXISTS FOR ()-[r:DashboardContainsDashboard]-() ON (r.owner);
CREATE INDEX rel_owner_DerivedFrom IF NOT EXISTS FOR ()-[r:DerivedFrom]-() ON (r.owner);
CREATE INDEX rel_owner_KeyedBy IF NOT EXISTS FOR ()-[r:KeyedBy]-() ON (r.owner);
CREATE INDEX rel_owner_TrainedBy IF NOT EXISTS FOR ()-[r:TrainedBy]-() ON (r.owner);
CREATE INDEX rel_owner_UsedBy IF NOT EXISTS FOR ()-[r:UsedBy]-() ON (r.owner);
CREATE INDEX rel_owner_MemberOf IF NOT EXISTS FOR ()-[r:MemberOf]-() ON (r.owner);
CREATE INDEX rel_owner_DeployedTo IF NOT EXISTS FOR ()-[r:DeployedTo]-() ON (r.owner);
CREATE INDEX rel_owner_DataProcessInstanceConsumes IF NOT EXISTS FOR ()-[r:DataProcessInstanceConsumes]-() ON (r.owner);
CREATE INDEX rel_owner_DataProcessInstanceProduces IF NOT EXISTS FOR ()-[r:DataProcessInstanceProduces]-() ON (r.owner);
CREATE INDEX rel_owner_InstanceOf IF NOT EXISTS FOR ()-[r:InstanceOf]-() ON (r.owner);
CREATE INDEX rel_owner_ChildOf IF NOT EXISTS FOR ()-[r:ChildOf]-() ON (r.owner);
CREATE INDEX rel_owner_UpstreamOf IF NOT EXISTS FOR ()-[r:UpstreamOf]-() ON (r.owner);
CREATE INDEX rel_owner_consumesField IF NOT EXISTS FOR ()-[r:consumesField]-() ON (r.owner);
CREATE INDEX rel_owner_TaggedWith IF NOT EXISTS FOR ()-[r:TaggedWith]-() ON (r.owner);
CREATE INDEX rel_owner_TermedWith IF NOT EXISTS FOR ()-[r:TermedWith]-() ON (r.owner);
CREATE INDEX rel_owner_OwnedBy IF NOT EXISTS FOR ()-[r:OwnedBy]-() ON (r.owner);
CREATE INDEX rel_owner_SchemaFieldTaggedWith IF NOT EXISTS FOR ()-[r:SchemaFieldTaggedWith]-() ON (r.owner);
CREATE INDEX rel_owner_SchemaFieldWithGlossaryTerm IF NOT EXISTS FOR ()-[r:SchemaFieldWithGlossaryTerm]-() ON (r.owner);
CREATE INDEX rel_owner_LINEAGE IF NOT EXISTS FOR ()-[r:LINEAGE]-() ON (r.owner);
