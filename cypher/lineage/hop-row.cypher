// Partial, not a statement: what a hop of the application-level BFS returns about each node it
// reached (lineage/hop, lineage/hop-nodes), written once and inlined by the loader
// (catalog/src/store/cypher.ts) where a template says {{hopRow:<variable>}}; {{node}} stands for
// that variable. Every variable bound before it is kept. It ends inside its RETURN, so a template
// may add columns (a comma, then more) and an ORDER BY after it.
// A schemaField's platform, origin, removal and returnability are its parent's (`e`); names and
// descriptions are read only when the request judges them ($strings).
// Columns: id (the node's element id), urn, entityType, platform, origin, name, description,
//          removed, ownExists, parentUrn, returnable: boolean,
//          parent: {urn, entityType, platform, origin, name, description} | null (schemaFields)
OPTIONAL MATCH (parentNode:Entity {urn: {{node}}.parentUrn})
WITH *, CASE WHEN {{node}}.entityType = 'schemaField' THEN parentNode ELSE {{node}} END AS e
RETURN elementId({{node}}) AS id, {{node}}.urn AS urn, {{node}}.entityType AS entityType, e.platform AS platform, e.origin AS origin,
       CASE WHEN $strings THEN {{node}}.name END AS name, CASE WHEN $strings THEN {{node}}.description END AS description,
       coalesce(e.removed, false) AS removed, coalesce({{node}}.exists, false) AS ownExists, {{node}}.parentUrn AS parentUrn,
       (e IS NOT NULL AND e.exists = true AND ($includeSoftDeleted OR NOT coalesce(e.removed, false))) AS returnable,
       CASE WHEN {{node}}.entityType = 'schemaField' AND e IS NOT NULL THEN {urn: e.urn, entityType: e.entityType,
         platform: e.platform, origin: e.origin, name: CASE WHEN $strings THEN e.name END,
         description: CASE WHEN $strings THEN e.description END} END AS parent
