// Purpose: record the schema version a store was migrated to, and by whom and when (one node).
// Params: $version: int, $by: string (what migrated: "npm run migrate", "start-up"), $at: int (epoch ms)
// Returns: nothing
MERGE (s:SchemaVersion {name: 'catalog'})
SET s.version = $version, s.migratedBy = $by, s.migratedAt = $at
