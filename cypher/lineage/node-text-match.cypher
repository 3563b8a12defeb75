// Partial, not a statement: whether a node matches impact analysis' free text (docs/lineage-model.md
// §Results), inlined by the loader (catalog/src/store/cypher.ts) wherever a lineage template says
// {{nodeTextMatch:<variable>}}; {{node}} stands for that variable. Every token in the urn, name or
// description, lower-cased, as results.ts judges it (a token holds no line break, so "in one of
// them" is "in the three joined"). Params: $tokens: [string] (lower-cased; [] = no text query: true)
all(t IN $tokens WHERE any(f IN ['urn', 'name', 'description'] WHERE toLower(coalesce({{node}}[f], '')) CONTAINS t))
