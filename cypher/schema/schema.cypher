// Purpose: the constraints and indexes, applied idempotently at every start (IF NOT EXISTS). Several
// statements, split on the semicolons at line ends (store.ts applySchema).
// Template: catalog/src/store/cypher.ts repeats the relationshipTypes section once per relationship type.
// Params: none
// Returns: nothing
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
// Edges are owned by (owner urn, aspect): restore and hard delete find them through these. One index
// per relationship type of RELATIONSHIP_TYPES, expanded by the loader (a listing template), and LINEAGE's.
{{#relationshipTypes}}
CREATE INDEX rel_owner_{{relationshipType}} IF NOT EXISTS FOR ()-[r:{{relationshipType}}]-() ON (r.owner);
{{/relationshipTypes}}
CREATE INDEX rel_owner_LINEAGE IF NOT EXISTS FOR ()-[r:LINEAGE]-() ON (r.owner);
// The store's schema version (schema/read-version, docs/operations.md §Schema versions): one node.
CREATE CONSTRAINT schema_version_name IF NOT EXISTS FOR (s:SchemaVersion) REQUIRE s.name IS UNIQUE;
// The change log (docs/change-events.md): one head node whose `next` hands out offsets, and the
// events in batches (one per write transaction, entity and topic: store/change-batches.ts) holding
// offsets `offset..last`, unique by first offset (a second batch at an offset would fail its
// commit), polled by (topic, last), pruned and re-read in offset order, and found by time for a
// lookback window.
CREATE CONSTRAINT change_log_head_name IF NOT EXISTS FOR (h:ChangeLogHead) REQUIRE h.name IS UNIQUE;
CREATE CONSTRAINT change_log_retention_name IF NOT EXISTS FOR (r:ChangeLogRetention) REQUIRE r.name IS UNIQUE;
CREATE CONSTRAINT change_batch_offset IF NOT EXISTS FOR (b:ChangeBatch) REQUIRE b.offset IS UNIQUE;
CREATE INDEX change_batch_topic_last IF NOT EXISTS FOR (b:ChangeBatch) ON (b.topic, b.last);
CREATE INDEX change_batch_created IF NOT EXISTS FOR (b:ChangeBatch) ON (b.createdOn);
// An entity's recent changes (newest first), and the batches whose events refer to an aspect row's
// versions instead of carrying them (events/aspect-refs runs before those rows are deleted).
CREATE INDEX change_batch_entity IF NOT EXISTS FOR (b:ChangeBatch) ON (b.entityUrn, b.offset);
// Schema 5 stored one node per event (ChangeEvent), with an index per lookup; migration step 6
// turns them into batches of one (events/migrate-single-events).
DROP CONSTRAINT change_event_offset IF EXISTS;
DROP INDEX change_event_topic_offset IF EXISTS;
DROP INDEX change_event_created IF EXISTS;
DROP INDEX change_event_entity IF EXISTS;
DROP INDEX change_event_aspect_ref IF EXISTS;
// Exports in progress (docs/operations.md §Consistency): each holds rows deleted while it runs. The
// write path asks for live holds before deleting rows (few nodes: a label scan); the export reads
// the held rows of each page's urn range.
CREATE CONSTRAINT export_hold_id IF NOT EXISTS FOR (h:ExportHold) REQUIRE h.id IS UNIQUE;
CREATE INDEX held_row_urn IF NOT EXISTS FOR (r:HeldRow) ON (r.urn);
