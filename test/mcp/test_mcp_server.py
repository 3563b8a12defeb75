"""DataHub's own MCP server (mcp-server-datahub from PyPI, unchanged) against the catalog.

Run by `npm run test:interop` (tools/interop.ts), which starts the stack and passes INTEROP_GMS_URL and
INTEROP_TOKEN. The suite writes a small graph with the SDK — a dataset chain with a column edge, a
chart and a dashboard, a query — starts the server over stdio with the official `mcp` client, calls
its read tools and checks the answers against that graph. It also validates every GraphQL document
the package ships against the catalog's schema (introspected through the same GraphQL endpoint).
"""
from __future__ import annotations

import asyncio
import json
import os
import random
import string
import sys
from pathlib import Path

import mcp_server_datahub
import pytest
from datahub.emitter.mce_builder import make_dataset_urn, make_schema_field_urn
from datahub.emitter.mcp import MetadataChangeProposalWrapper
from datahub.emitter.rest_emitter import DatahubRestEmitter
from datahub.ingestion.graph.client import DataHubGraph, DatahubClientConfig
from datahub.metadata.schema_classes import (
    ChartInfoClass, ChangeAuditStampsClass, DashboardInfoClass, DatasetLineageTypeClass, DatasetPropertiesClass,
    FineGrainedLineageClass, FineGrainedLineageDownstreamTypeClass, FineGrainedLineageUpstreamTypeClass, NumberTypeClass,
    OtherSchemaClass, QueryPropertiesClass, QueryStatementClass, QuerySubjectClass, QuerySubjectsClass, SchemaFieldClass,
    SchemaFieldDataTypeClass, SchemaMetadataClass, StringTypeClass, UpstreamClass, UpstreamLineageClass, AuditStampClass,
)
from graphql import build_client_schema, get_introspection_query, parse, validate
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client

GMS_URL = os.environ.get("INTEROP_GMS_URL", "").rstrip("/")
TOKEN = os.environ.get("INTEROP_TOKEN", "")
if not GMS_URL or not TOKEN:
    pytest.exit("INTEROP_GMS_URL / INTEROP_TOKEN are not set: run the suite with `npm run test:interop`", returncode=2)

NS = "mcp" + "".join(random.choices(string.ascii_lowercase, k=6))
PLATFORM = "postgres"
RAW, CLEAN, REPORT = (make_dataset_urn(PLATFORM, f"{NS}.{n}", "PROD") for n in ("raw_orders", "clean_orders", "order_report"))
CHART = f"urn:li:chart:(looker,{NS}_revenue)"
DASHBOARD = f"urn:li:dashboard:(looker,{NS}_sales)"
QUERY = f"urn:li:query:{NS}_q1"
STAMP = AuditStampClass(time=1_700_000_000_000, actor="urn:li:corpuser:datahub")


def schema(urn: str, fields: list[tuple[str, object]]) -> SchemaMetadataClass:
    return SchemaMetadataClass(
        schemaName=urn, platform=f"urn:li:dataPlatform:{PLATFORM}", version=0, hash="", platformSchema=OtherSchemaClass(rawSchema=""),
        fields=[SchemaFieldClass(fieldPath=p, type=SchemaFieldDataTypeClass(type=t), nativeDataType="text", description=f"the {p}") for p, t in fields],
    )


@pytest.fixture(scope="session", autouse=True)
def graph_written() -> None:
    emitter = DatahubRestEmitter(GMS_URL, token=TOKEN)
    columns = [("order_id", NumberTypeClass()), ("amount", NumberTypeClass()), ("status", StringTypeClass())]
    mcps = []
    for urn, name in ((RAW, "raw_orders"), (CLEAN, "clean_orders"), (REPORT, "order_report")):
        mcps += [MetadataChangeProposalWrapper(entityUrn=urn, aspect=DatasetPropertiesClass(name=name, description=f"{name} of {NS}")),
                 MetadataChangeProposalWrapper(entityUrn=urn, aspect=schema(urn, columns))]
    mcps += [
        MetadataChangeProposalWrapper(entityUrn=CLEAN, aspect=UpstreamLineageClass(
            upstreams=[UpstreamClass(dataset=RAW, type=DatasetLineageTypeClass.TRANSFORMED, auditStamp=STAMP, query=QUERY)],
            fineGrainedLineages=[FineGrainedLineageClass(
                upstreamType=FineGrainedLineageUpstreamTypeClass.FIELD_SET, upstreams=[make_schema_field_urn(RAW, "amount")],
                downstreamType=FineGrainedLineageDownstreamTypeClass.FIELD, downstreams=[make_schema_field_urn(CLEAN, "amount")])])),
        MetadataChangeProposalWrapper(entityUrn=REPORT, aspect=UpstreamLineageClass(
            upstreams=[UpstreamClass(dataset=CLEAN, type=DatasetLineageTypeClass.TRANSFORMED, auditStamp=STAMP)])),
        MetadataChangeProposalWrapper(entityUrn=QUERY, aspect=QueryPropertiesClass(
            statement=QueryStatementClass(value=f"INSERT INTO clean_orders SELECT * FROM raw_orders -- {NS}", language="SQL"),
            source="SYSTEM", created=STAMP, lastModified=STAMP)),
        MetadataChangeProposalWrapper(entityUrn=QUERY, aspect=QuerySubjectsClass(subjects=[QuerySubjectClass(entity=RAW), QuerySubjectClass(entity=CLEAN)])),
        MetadataChangeProposalWrapper(entityUrn=CHART, aspect=ChartInfoClass(
            title=f"{NS} revenue", description="revenue by day", lastModified=ChangeAuditStampsClass(), inputs=[REPORT])),
        MetadataChangeProposalWrapper(entityUrn=DASHBOARD, aspect=DashboardInfoClass(
            title=f"{NS} sales", description="sales", lastModified=ChangeAuditStampsClass(), charts=[CHART])),
    ]
    for m in mcps:
        emitter.emit_mcp(m)


def call_tools(calls: list[tuple[str, dict]]) -> list[dict]:
    """Starts mcp-server-datahub over stdio with the official client and makes the calls in order."""
    async def run() -> list[dict]:
        params = StdioServerParameters(
            command=sys.executable, args=["-m", "mcp_server_datahub"],
            env={**os.environ, "DATAHUB_GMS_URL": GMS_URL, "DATAHUB_GMS_TOKEN": TOKEN, "DISABLE_TELEMETRY": "true"},
        )
        async with stdio_client(params) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                answers = []
                for name, args in calls:
                    result = await session.call_tool(name, args)
                    text = "".join(c.text for c in result.content if getattr(c, "type", "") == "text")
                    assert not result.isError, f"{name}({args}) failed: {text[:2000]}"
                    answers.append(json.loads(text))
                return answers
    return asyncio.run(asyncio.wait_for(run(), timeout=300))


def nodes(value: object):
    """Every value anywhere in a tool's answer, with the key it stands under (None in lists)."""
    stack: list = [(None, value)]
    while stack:
        key, v = stack.pop()
        yield key, v
        if isinstance(v, dict):
            stack.extend(v.items())
        elif isinstance(v, list):
            stack.extend((None, x) for x in v)


def urns_in(value: object) -> set[str]:
    return {v for _, v in nodes(value) if isinstance(v, str) and v.startswith("urn:li:")}


def values_of(value: object, key: str) -> list:
    return [v for k, v in nodes(value) if k == key]


def test_every_graphql_document_the_package_ships_validates():
    graph = DataHubGraph(DatahubClientConfig(server=GMS_URL, token=TOKEN))
    schema = build_client_schema(graph.execute_graphql(get_introspection_query()))
    gql_dir = Path(mcp_server_datahub.__file__).parent / "gql"
    documents = sorted(gql_dir.glob("*.gql"))
    assert len(documents) >= 10
    problems = {d.name: [e.message for e in validate(schema, parse(d.read_text()))] for d in documents}
    assert {k: v for k, v in problems.items() if v} == {}


def test_read_tools_answer_from_the_graph():
    (tools_listed, plain, entities, up1, down3, column, paths, fields, queries) = call_tools([
        ("search", {"query": "*", "num_results": 1}),
        ("search", {"query": f"{NS}", "num_results": 10}),
        ("get_entities", {"urns": [CLEAN, CHART]}),
        ("get_lineage", {"urn": CLEAN, "upstream": True, "max_hops": 1}),
        ("get_lineage", {"urn": RAW, "upstream": False, "max_hops": 3}),
        ("get_lineage", {"urn": CLEAN, "column": "amount", "upstream": True, "max_hops": 1}),
        ("get_lineage_paths_between", {"source_urn": RAW, "target_urn": REPORT}),
        ("list_schema_fields", {"urn": CLEAN}),
        ("get_dataset_queries", {"urn": CLEAN}),
    ])
    assert tools_listed["total"] >= 1
    assert {RAW, CLEAN, REPORT} <= urns_in(plain)
    assert [e["urn"] for e in entities] == [CLEAN, CHART]
    assert entities[0]["properties"]["name"] == "clean_orders"
    assert RAW in urns_in(up1) and REPORT not in urns_in(up1)
    assert {CLEAN, REPORT, CHART, DASHBOARD} <= urns_in(down3)
    # Column lineage answers the upstream dataset with the columns its paths reach (lineageColumns).
    assert RAW in urns_in(column) and ["amount"] in values_of(column, "lineageColumns")
    assert CLEAN in urns_in(paths)
    assert sorted(f["fieldPath"] for f in fields["fields"]) == ["amount", "order_id", "status"]
    assert QUERY in urns_in(queries)
    (no_queries,) = call_tools([("get_dataset_queries", {"urn": REPORT})])
    assert QUERY not in urns_in(no_queries)


def test_structured_search_after_q():
    """DataHub's /q syntax, as the search tool's own docs tell agents to write it: fielded words, NOT."""
    (both, exact) = call_tools([
        ("search", {"query": f"/q description:{NS} AND NOT name:raw_orders", "num_results": 10}),
        ("search", {"query": f"/q description:{NS} AND (name:clean_orders OR name:\"order_report\")", "num_results": 10}),
    ])
    assert {CLEAN, REPORT} <= urns_in(both) and RAW not in urns_in(both)
    assert {CLEAN, REPORT} <= urns_in(exact) and RAW not in urns_in(exact) and CHART not in urns_in(exact)
