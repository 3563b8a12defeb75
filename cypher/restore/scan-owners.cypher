// Purpose: clean mode: the next $limit distinct edge owners after $after (keyset) across every
// derived relationship type, through the per-type owner indexes: each branch is an ordered
// distinct over the index (no scan of the whole type), and the n smallest owners overall are
// among the n smallest of each branch. One branch per type of the derivation registry
// (catalog/src/model/relationships.ts) plus LINEAGE, like edges/owned-by.
// Params: $lower, $upper, $after: string, $regex: string, $limit: int
// Returns: owner
CALL () {
  MATCH ()-[r:DownstreamOf]->() WHERE r.owner >= $lower AND r.owner > $after AND r.owner < $upper AND r.owner =~ $regex
  WITH DISTINCT r.owner AS owner ORDER BY owner LIMIT $limit RETURN owner
  UNION
  MATCH ()-[r:Consumes]->() WHERE r.owner >= $lower AND r.owner > $after AND r.owner < $upper AND r.owner =~ $regex
  WITH DISTINCT r.owner AS owner ORDER BY owner LIMIT $limit RETURN owner
  UNION
  MATCH ()-[r:Produces]->() WHERE r.owner >= $lower AND r.owner > $after AND r.owner < $upper AND r.owner =~ $regex
  WITH DISTINCT r.owner AS owner ORDER BY owner LIMIT $limit RETURN owner
  UNION
  MATCH ()-[r:IsPartOf]->() WHERE r.owner >= $lower AND r.owner > $after AND r.owner < $upper AND r.owner =~ $regex
  WITH DISTINCT r.owner AS owner ORDER BY owner LIMIT $limit RETURN owner
  UNION
  MATCH ()-[r:Contains]->() WHERE r.owner >= $lower AND r.owner > $after AND r.owner < $upper AND r.owner =~ $regex
  WITH DISTINCT r.owner AS owner ORDER BY owner LIMIT $limit RETURN owner
  UNION
  MATCH ()-[r:DashboardContainsDashboard]->() WHERE r.owner >= $lower AND r.owner > $after AND r.owner < $upper AND r.owner =~ $regex
  WITH DISTINCT r.owner AS owner ORDER BY owner LIMIT $limit RETURN owner
  UNION
  MATCH ()-[r:DerivedFrom]->() WHERE r.owner >= $lower AND r.owner > $after AND r.owner < $upper AND r.owner =~ $regex
  WITH DISTINCT r.owner AS owner ORDER BY owner LIMIT $limit RETURN owner
  UNION
  MATCH ()-[r:KeyedBy]->() WHERE r.owner >= $lower AND r.owner > $after AND r.owner < $upper AND r.owner =~ $regex
  WITH DISTINCT r.owner AS owner ORDER BY owner LIMIT $limit RETURN owner
  UNION
  MATCH ()-[r:TrainedBy]->() WHERE r.owner >= $lower AND r.owner > $after AND r.owner < $upper AND r.owner =~ $regex
  WITH DISTINCT r.owner AS owner ORDER BY owner LIMIT $limit RETURN owner
  UNION
  MATCH ()-[r:UsedBy]->() WHERE r.owner >= $lower AND r.owner > $after AND r.owner < $upper AND r.owner =~ $regex
  WITH DISTINCT r.owner AS owner ORDER BY owner LIMIT $limit RETURN owner
  UNION
  MATCH ()-[r:MemberOf]->() WHERE r.owner >= $lower AND r.owner > $after AND r.owner < $upper AND r.owner =~ $regex
  WITH DISTINCT r.owner AS owner ORDER BY owner LIMIT $limit RETURN owner
  UNION
  MATCH ()-[r:DeployedTo]->() WHERE r.owner >= $lower AND r.owner > $after AND r.owner < $upper AND r.owner =~ $regex
  WITH DISTINCT r.owner AS owner ORDER BY owner LIMIT $limit RETURN owner
  UNION
  MATCH ()-[r:DataProcessInstanceConsumes]->() WHERE r.owner >= $lower AND r.owner > $after AND r.owner < $upper AND r.owner =~ $regex
  WITH DISTINCT r.owner AS owner ORDER BY owner LIMIT $limit RETURN owner
  UNION
  MATCH ()-[r:DataProcessInstanceProduces]->() WHERE r.owner >= $lower AND r.owner > $after AND r.owner < $upper AND r.owner =~ $regex
  WITH DISTINCT r.owner AS owner ORDER BY owner LIMIT $limit RETURN owner
  UNION
  MATCH ()-[r:InstanceOf]->() WHERE r.owner >= $lower AND r.owner > $after AND r.owner < $upper AND r.owner =~ $regex
  WITH DISTINCT r.owner AS owner ORDER BY owner LIMIT $limit RETURN owner
  UNION
  MATCH ()-[r:ChildOf]->() WHERE r.owner >= $lower AND r.owner > $after AND r.owner < $upper AND r.owner =~ $regex
  WITH DISTINCT r.owner AS owner ORDER BY owner LIMIT $limit RETURN owner
  UNION
  MATCH ()-[r:UpstreamOf]->() WHERE r.owner >= $lower AND r.owner > $after AND r.owner < $upper AND r.owner =~ $regex
  WITH DISTINCT r.owner AS owner ORDER BY owner LIMIT $limit RETURN owner
  UNION
  MATCH ()-[r:consumesField]->() WHERE r.owner >= $lower AND r.owner > $after AND r.owner < $upper AND r.owner =~ $regex
  WITH DISTINCT r.owner AS owner ORDER BY owner LIMIT $limit RETURN owner
  UNION
  MATCH ()-[r:LINEAGE]->() WHERE r.owner >= $lower AND r.owner > $after AND r.owner < $upper AND r.owner =~ $regex
  WITH DISTINCT r.owner AS owner ORDER BY owner LIMIT $limit RETURN owner
}
WITH DISTINCT owner ORDER BY owner LIMIT $limit
RETURN owner
