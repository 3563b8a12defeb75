"""The SDK surface around lineage beyond the lineage calls (issue 23): the OpenAPI v3 entity and
relationship scrolls, one aspect over v3, conditional writes, and DataHubClient.search with filters.

Each test drives the real client; where a pinned client version lacks the call, the test is skipped
saying which. Each runs against the ingestion service directly and through the front door.
"""
from __future__ import annotations

from typing import Dict, Iterator

import pytest
import requests

from conftest import TOKEN, Target, client_at_least

from datahub.emitter.mcp import MetadataChangeProposalWrapper
from datahub.ingestion.graph.client import DataHubGraph, DatahubClientConfig
from datahub.metadata.schema_classes import (
    ChartInfoClass,
    ChangeAuditStampsClass,
    DatasetPropertiesClass,
    EdgeClass,
    StatusClass,
    SubTypesClass,
    UpstreamClass,
    UpstreamLineageClass,
)


def _has(name: str) -> bool:
    return hasattr(DataHubGraph, name)


@pytest.fixture(scope="module")
def seeded(target: Target, graph: DataHubGraph) -> Dict[str, str]:
    """fct_orders ← stg_orders (a view), and a chart reading fct_orders, on a platform of their own."""
    platform = f"sdks{target.ns[-12:]}".replace("_", "")
    urns = {
        "stg": f"urn:li:dataset:(urn:li:dataPlatform:{platform},{target.ns}.staging.stg_orders,PROD)",
        "fct": f"urn:li:dataset:(urn:li:dataPlatform:{platform},{target.ns}.analytics.fct_orders,PROD)",
        "chart": f"urn:li:chart:({platform},{target.ns}_weekly)",
        "platform": platform,
    }
    graph.emit_mcp(MetadataChangeProposalWrapper(entityUrn=urns["stg"], aspect=DatasetPropertiesClass(name="stg_orders")))
    graph.emit_mcp(MetadataChangeProposalWrapper(entityUrn=urns["stg"], aspect=SubTypesClass(typeNames=["View"])))
    graph.emit_mcp(MetadataChangeProposalWrapper(entityUrn=urns["fct"], aspect=DatasetPropertiesClass(name="fct_orders")))
    graph.emit_mcp(MetadataChangeProposalWrapper(entityUrn=urns["fct"], aspect=UpstreamLineageClass(
        upstreams=[UpstreamClass(dataset=urns["stg"], type="TRANSFORMED")])))
    graph.emit_mcp(MetadataChangeProposalWrapper(entityUrn=urns["chart"], aspect=ChartInfoClass(
        title="Weekly orders", description="", lastModified=ChangeAuditStampsClass(),
        inputEdges=[EdgeClass(destinationUrn=urns["fct"])])))
    return urns


@pytest.mark.skipif(not _has("scroll_relationships"), reason="graph.scroll_relationships is not in this client version")
def test_scroll_relationships(seeded: Dict[str, str], graph: DataHubGraph) -> None:
    from datahub.ingestion.graph.openapi import RelationshipDirection

    result = graph.scroll_relationships(relationship_types=["DownstreamOf"], source_urns=[seeded["fct"]])
    assert [(r.source_urn, r.relationship_type, r.destination_urn, r.destination_entity_type) for r in result.relationships] == [
        (seeded["fct"], "DownstreamOf", seeded["stg"], "dataset")]
    assert result.scroll_id is None
    # Paged one at a time over both edges into fct_orders' neighbourhood, by the client's scroll_id.
    seen = []
    scroll_id = None
    while True:
        page = graph.scroll_relationships(relationship_types=["DownstreamOf", "Consumes"], destination_urns=[seeded["fct"], seeded["stg"]],
                                          count=1, scroll_id=scroll_id)
        seen += [(r.source_urn, r.relationship_type) for r in page.relationships]
        scroll_id = page.scroll_id
        if scroll_id is None:
            break
    assert sorted(seen) == sorted([(seeded["chart"], "Consumes"), (seeded["fct"], "DownstreamOf")])
    incoming = graph.scroll_relationships(relationship_types=["DownstreamOf"], source_urns=[seeded["stg"]], direction=RelationshipDirection.INCOMING)
    assert [r.source_urn for r in incoming.relationships] == [seeded["fct"]]


@pytest.mark.skipif(not _has("scroll_entities"), reason="graph.scroll_entities (OpenAPI v3 entity scroll) is not in this client version")
def test_scroll_entities_with_filter_query_and_aspects(seeded: Dict[str, str], graph: DataHubGraph) -> None:
    mine = [{"and": [{"field": "platform", "values": [seeded["platform"]], "condition": "EQUAL"}]}]
    first = graph.scroll_entities(entity_names=["dataset"], aspects=["datasetProperties", "subTypes"], filter=mine, count=1,
                                  sort_criteria=[{"field": "urn", "order": "ASCENDING"}])
    assert first.total_count == 2
    assert list(first.entities) == [sorted([seeded["fct"], seeded["stg"]])[0]]
    second = graph.scroll_entities(entity_names=["dataset"], aspects=["datasetProperties", "subTypes"], filter=mine, count=1,
                                   scroll_id=first.scroll_id, sort_criteria=[{"field": "urn", "order": "ASCENDING"}])
    assert second.scroll_id is None
    stg = {**first.entities, **second.entities}[seeded["stg"]]
    assert stg["datasetProperties"][0].name == "stg_orders"
    assert stg["subTypes"][0].typeNames == ["View"]
    # The query is analysed as DataHub's is: "orders" is a word of fct_orders and of stg_orders.
    found = graph.scroll_entities(entity_names=["dataset"], query="orders", filter=mine)
    assert set(found.entities) == {seeded["fct"], seeded["stg"]}
    # scroll_entities raises the HTTPError of requests; the body names the field.
    with pytest.raises(requests.HTTPError) as bad:
        graph.scroll_entities(filter=[{"and": [{"field": "colour", "values": ["x"], "condition": "EQUAL"}]}])
    assert bad.value.response.status_code == 400
    assert "Unknown filter field 'colour'" in bad.value.response.json()["error"]


@pytest.mark.skipif(not client_at_least(1, 0), reason="DataHubClient (SDK v2) arrived in acryl-datahub 1.0")
def test_datahub_client_search_with_filters(seeded: Dict[str, str], target: Target) -> None:
    from datahub.sdk.main_client import DataHubClient
    from datahub.sdk.search_filters import FilterDsl as F

    client = DataHubClient(server=target.gms_url, token=TOKEN)
    urns = {str(u) for u in client.search.get_urns(filter=F.and_(F.platform(seeded["platform"]), F.entity_type("dataset")))}
    assert urns == {seeded["fct"], seeded["stg"]}
    assert {str(u) for u in client.search.get_urns(query="fct_orders", filter=F.platform(seeded["platform"]))} == {seeded["fct"]}
    assert {str(u) for u in client.search.get_urns(query="staging", filter=F.platform(seeded["platform"]))} == {seeded["stg"]}
    charts = {str(u) for u in client.search.get_urns(query="weekly", filter=F.entity_type("chart"))}
    assert seeded["chart"] in charts


@pytest.fixture(scope="module")
def openapi_graph(target: Target) -> Iterator[DataHubGraph]:
    g = DataHubGraph(DatahubClientConfig(server=target.gms_url, token=TOKEN, openapi_ingestion=True))
    yield g
    g.close()


@pytest.mark.skipif(not client_at_least(1, 0), reason="openapi_ingestion arrived in acryl-datahub 1.0")
def test_openapi_client_writes_and_reads_one_aspect(seeded: Dict[str, str], openapi_graph: DataHubGraph, target: Target) -> None:
    """An openapi_ingestion=True client: emit through /openapi/v3/entity, read the aspect back through
    get_aspect, and through the v3 per-aspect and entity routes with the client's own session."""
    urn = f"urn:li:dataset:(urn:li:dataPlatform:{seeded['platform']},{target.ns}.v3_one,PROD)"
    openapi_graph.emit_mcp(MetadataChangeProposalWrapper(entityUrn=urn, aspect=DatasetPropertiesClass(name="v3_one")))
    props = openapi_graph.get_aspect(urn, DatasetPropertiesClass)
    assert props is not None and props.name == "v3_one"
    one = openapi_graph._get_generic(f"{target.gms_url}/openapi/v3/entity/dataset/{urn}/datasetProperties", params={"systemMetadata": "true"})
    assert one["value"]["name"] == "v3_one"
    assert one["systemMetadata"]["version"] == "1"
    entity = openapi_graph._get_generic(f"{target.gms_url}/openapi/v3/entity/dataset/{urn}")
    assert entity["urn"] == urn and entity["datasetProperties"]["value"]["name"] == "v3_one"
    assert openapi_graph._session.head(f"{target.gms_url}/openapi/v3/entity/dataset/{urn}").status_code == 204
    missing = f"urn:li:dataset:(urn:li:dataPlatform:{seeded['platform']},{target.ns}.v3_never,PROD)"
    assert openapi_graph._session.head(f"{target.gms_url}/openapi/v3/entity/dataset/{missing}").status_code == 404
    assert openapi_graph._session.get(f"{target.gms_url}/openapi/v3/entity/datasetz/{missing}").status_code == 404


def _forwards_mcp_headers() -> bool:
    """Whether this client's OpenAPI emitter puts an MCP's own headers into the v3 envelope."""
    try:
        import inspect

        from datahub.emitter.request_helper import OpenApiRequest
    except ImportError:
        return False
    return 'getattr(mcp, "headers"' in inspect.getsource(OpenApiRequest.from_mcp)


@pytest.mark.skipif(not _forwards_mcp_headers(), reason="this client's OpenAPI emitter does not send the MCP's headers (If-Version-Match)")
def test_conditional_write_412_through_the_emitter(seeded: Dict[str, str], openapi_graph: DataHubGraph, target: Target) -> None:
    urn = f"urn:li:dataset:(urn:li:dataPlatform:{seeded['platform']},{target.ns}.conditional,PROD)"
    create_only = dict(headers={"If-Version-Match": "-1"})
    openapi_graph.emit_mcp(MetadataChangeProposalWrapper(entityUrn=urn, aspect=StatusClass(removed=False), **create_only))
    with pytest.raises(Exception, match="412|Precondition|Expected version -1, actual version 1"):
        openapi_graph.emit_mcp(MetadataChangeProposalWrapper(entityUrn=urn, aspect=StatusClass(removed=True), **create_only))
    status = openapi_graph.get_aspect(urn, StatusClass)
    assert status is not None and status.removed is False
    openapi_graph.emit_mcp(MetadataChangeProposalWrapper(entityUrn=urn, aspect=StatusClass(removed=True), headers={"If-Version-Match": "1"}))
    status = openapi_graph.get_aspect(urn, StatusClass)
    assert status is not None and status.removed is True
