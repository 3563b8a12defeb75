"""The SDK v2 lineage client (datahub.sdk: DataHubClient.lineage / entities) against the catalog.

DataHubClient arrived in acryl-datahub 1.0; with older pinned clients these tests are skipped with
that reason. Each test runs against the ingestion service directly and through the front door.
"""
from __future__ import annotations

from typing import Dict, List, Tuple

import pytest

from conftest import TOKEN, Target, client_at_least

pytestmark = pytest.mark.skipif(not client_at_least(1, 0), reason="DataHubClient (SDK v2) arrived in acryl-datahub 1.0")

if client_at_least(1, 0):
    from datahub.ingestion.graph.client import DataHubGraph, DatahubClientConfig
    from datahub.metadata.urns import SchemaFieldUrn
    from datahub.sdk.dataset import Dataset
    from datahub.sdk.main_client import DataHubClient
    from datahub.sdk.search_filters import FilterDsl as F


@pytest.fixture(scope="module")
def client(target: Target) -> "DataHubClient":
    return DataHubClient(server=target.gms_url, token=TOKEN)


@pytest.fixture(scope="module")
def chain(target: Target, client: "DataHubClient") -> Dict[str, str]:
    """raw (postgres) → staged → mart (postgres) → report (duckdb), columns matched by name."""
    specs: List[Tuple[str, str]] = [("raw", "postgres"), ("staged", "postgres"), ("mart", "postgres"), ("report", "duckdb")]
    urns: Dict[str, str] = {}
    for name, platform in specs:
        ds = Dataset(platform=platform, name=f"{target.ns}.sdk2_{name}", schema=[("customer_id", "int"), ("amount", "decimal")])
        client.entities.upsert(ds)
        urns[name] = str(ds.urn)
    client.lineage.add_lineage(upstream=urns["raw"], downstream=urns["staged"], column_lineage=True)
    client.lineage.add_lineage(upstream=urns["staged"], downstream=urns["mart"], column_lineage=True,
                               transformation_text="SELECT customer_id, sum(amount) AS amount FROM staged GROUP BY 1")
    client.lineage.add_lineage(upstream=urns["mart"], downstream=urns["report"], column_lineage=True)
    return urns


def test_table_lineage_with_hops_and_platforms(chain: Dict[str, str], client: "DataHubClient") -> None:
    results = sorted(client.lineage.get_lineage(source_urn=chain["raw"], direction="downstream", max_hops=3), key=lambda r: r.hops)
    assert [(r.urn, r.hops, r.platform) for r in results] == [
        (chain["staged"], 1, "postgres"), (chain["mart"], 2, "postgres"), (chain["report"], 3, "duckdb")]
    upstream = client.lineage.get_lineage(source_urn=chain["report"], direction="upstream", max_hops=1)
    assert [(r.urn, r.hops) for r in upstream] == [(chain["mart"], 1)]


def test_column_lineage_lists_the_column_route(chain: Dict[str, str], client: "DataHubClient") -> None:
    results = sorted(client.lineage.get_lineage(source_urn=chain["raw"], source_column="amount", direction="downstream", max_hops=3),
                     key=lambda r: r.hops)
    assert [r.urn for r in results] == [chain["staged"], chain["mart"], chain["report"]]
    # The client keeps the schemaField elements of each path: one route of 2, 3 and 4 columns.
    assert [[p.column_name for p in r.paths or []] for r in results] == [["amount"] * 2, ["amount"] * 3, ["amount"] * 4]
    same = client.lineage.get_lineage(source_urn=str(SchemaFieldUrn(chain["raw"], "amount")), direction="downstream", max_hops=3)
    assert sorted(r.urn for r in same) == sorted(r.urn for r in results)


def test_filters_platform_and_entity_type(chain: Dict[str, str], client: "DataHubClient") -> None:
    results = client.lineage.get_lineage(source_urn=chain["raw"], source_column="customer_id", direction="downstream", max_hops=3,
                                         filter=F.and_(F.platform("duckdb"), F.entity_type("dataset")))
    assert [(r.urn, r.hops, r.platform) for r in results] == [(chain["report"], 3, "duckdb")]
    assert client.lineage.get_lineage(source_urn=chain["raw"], direction="downstream", max_hops=3, filter=F.platform("snowflake")) == []


def test_transformation_text_is_a_query_inside_the_path(target: Target, chain: Dict[str, str]) -> None:
    graph = DataHubGraph(DatahubClientConfig(server=target.gms_url, token=TOKEN))
    data = graph.execute_graphql(
        """query($urn: String!) { scrollAcrossLineage(input: {urn: $urn, direction: DOWNSTREAM, count: 10,
             orFilters: [{and: [{field: "degree", values: ["1"]}]}]}) { searchResults { entity { urn } paths { path { urn type } } } } }""",
        variables={"urn": chain["staged"]})
    [result] = data["scrollAcrossLineage"]["searchResults"]
    assert result["entity"]["urn"] == chain["mart"]
    [path] = result["paths"]
    assert [e["type"] for e in path["path"]] == ["DATASET", "QUERY", "DATASET"]


def test_related_entities_and_batch_get(target: Target, chain: Dict[str, str]) -> None:
    graph = DataHubGraph(DatahubClientConfig(server=target.gms_url, token=TOKEN))
    related = {(e.urn, e.relationship_type) for e in graph.get_related_entities(
        chain["staged"], relationship_types=["DownstreamOf"], direction=DataHubGraph.RelationshipDirection.INCOMING)}
    assert related == {(chain["mart"], "DownstreamOf")}
    entities = graph.get_entities("dataset", [chain["mart"], chain["raw"]], aspects=["upstreamLineage"])
    assert set(entities) == {chain["mart"]}
    assert [u.dataset for u in entities[chain["mart"]]["upstreamLineage"][0].upstreams] == [chain["staged"]]


def test_openapi_ingestion_emits_and_patches(target: Target, chain: Dict[str, str]) -> None:
    """A client with openapi_ingestion=True writes through /openapi/v3/entity, patches included."""
    from datahub.emitter.mcp import MetadataChangeProposalWrapper
    from datahub.metadata.schema_classes import DatasetPropertiesClass, UpstreamClass, UpstreamLineageClass
    from datahub.specific.dataset import DatasetPatchBuilder

    graph = DataHubGraph(DatahubClientConfig(server=target.gms_url, token=TOKEN, openapi_ingestion=True))
    extra = f"urn:li:dataset:(urn:li:dataPlatform:postgres,{target.ns}.sdk2_extra,PROD)"
    graph.emit_mcp(MetadataChangeProposalWrapper(entityUrn=extra, aspect=DatasetPropertiesClass(name="extra")))
    graph.emit_mcp(MetadataChangeProposalWrapper(entityUrn=extra, aspect=UpstreamLineageClass(
        upstreams=[UpstreamClass(dataset=chain["raw"], type="TRANSFORMED")])))
    for mcp in DatasetPatchBuilder(extra).add_upstream_lineage(UpstreamClass(dataset=chain["staged"], type="TRANSFORMED")).build():
        graph.emit_mcp(mcp)
    lineage = graph.get_aspect(extra, UpstreamLineageClass)
    assert lineage is not None
    assert sorted(u.dataset for u in lineage.upstreams) == sorted([chain["raw"], chain["staged"]])
