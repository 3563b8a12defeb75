// Partial, not a statement: the time-window test of one lineage edge (docs/lineage-model.md §Time
// windows), written once and inlined by the loader (catalog/src/store/cypher.ts) wherever a lineage
// template says {{edgeInWindow:<variable>}}; {{edge}} stands for that variable. An edge passes when
// it is manual, when it carries neither stamp (absent or 0: column edges never do), or when either
// stamp is inside [$start, $end] — the stamps are tested as points, as DataHub does.
({{edge}}.manual
 OR (coalesce({{edge}}.createdOn, 0) = 0 AND coalesce({{edge}}.updatedOn, 0) = 0)
 OR ({{edge}}.createdOn >= $start AND {{edge}}.createdOn <= $end)
 OR ({{edge}}.updatedOn >= $start AND {{edge}}.updatedOn <= $end))
