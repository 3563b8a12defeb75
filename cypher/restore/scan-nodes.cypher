// Purpose: one page of entity node urns in urn order (clean mode's ghost pass), keyset-paginated
// through the entity_urn uniqueness index within [$lower, $upper).
// Params: $lower, $upper, $after: string, $regex: string, $limit: int
// Returns: urn
MATCH (n:Entity)
WHERE n.urn >= $lower AND n.urn > $after AND n.urn < $upper AND n.urn =~ $regex
RETURN n.urn AS urn
ORDER BY urn
LIMIT $limit
