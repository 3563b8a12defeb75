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
    ChartInfoClass, ChangeAuditStampsClass, CorpGroupInfoClass, CorpUserInfoClass, DocumentContentsClass, DocumentInfoClass,
    DocumentStatusClass, GroupMembershipClass, TagPropertiesClass, DashboardInfoClass, DatasetLineageTypeClass, DatasetPropertiesClass,
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
DOCUMENT = f"urn:li:document:{NS}_runbook"
USER, GROUP = f"urn:li:corpuser:{NS}_alice", f"urn:li:corpGroup:{NS}_analysts"
TAG = f"urn:li:tag:{NS}_pii"
# datasetProperties of CLEAN as written, oldest first: the aspect history the suite reads back.
CLEAN_DESCRIPTIONS = [f"clean_orders of {NS}", f"clean_orders of {NS}, deduplicated", f"clean_orders of {NS}, deduplicated daily"]
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
        MetadataChangeProposalWrapper(entityUrn=DOCUMENT, aspect=DocumentInfoClass(
            title=f"{NS} orders runbook", status=DocumentStatusClass(state="PUBLISHED"), created=STAMP, lastModified=STAMP,
            contents=DocumentContentsClass(text=f"When clean_orders is late, rerun the {NS} dedup job.\nThen run kubectl rollout restart deploy/orders."))),
        MetadataChangeProposalWrapper(entityUrn=GROUP, aspect=CorpGroupInfoClass(displayName=f"{NS} analysts", admins=[], members=[], groups=[])),
        MetadataChangeProposalWrapper(entityUrn=USER, aspect=CorpUserInfoClass(
            active=True, displayName="Alice Analyst", fullName="Alice Analyst", email=f"alice@{NS}.example", title="Analyst")),
        MetadataChangeProposalWrapper(entityUrn=USER, aspect=GroupMembershipClass(groups=[GROUP])),
        MetadataChangeProposalWrapper(entityUrn=TAG, aspect=TagPropertiesClass(name=f"{NS}_pii")),
    ]
    # Two later descriptions of CLEAN, so its datasetProperties has a history of two older versions.
    mcps += [MetadataChangeProposalWrapper(entityUrn=CLEAN, aspect=DatasetPropertiesClass(name="clean_orders", description=d))
             for d in CLEAN_DESCRIPTIONS[1:]]
    for m in mcps:
        emitter.emit_mcp(m)


def server_params(env: dict | None = None) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable, args=["-m", "mcp_server_datahub"],
        env={**os.environ, "DATAHUB_GMS_URL": GMS_URL, "DATAHUB_GMS_TOKEN": TOKEN, "DISABLE_TELEMETRY": "true", **(env or {})},
    )


def call_tools(calls: list[tuple[str, dict]], env: dict | None = None, failing: frozenset[str] = frozenset()) -> list[dict]:
    """Starts mcp-server-datahub over stdio with the official client and makes the calls in order.

    A tool named in `failing` must fail: its answer is {"error": <the text the agent sees>}."""
    async def run() -> list[dict]:
        async with stdio_client(server_params(env)) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                answers = []
                for name, args in calls:
                    result = await session.call_tool(name, args)
                    text = "".join(c.text for c in result.content if getattr(c, "type", "") == "text")
                    if name in failing:
                        assert result.isError, f"{name}({args}) should have failed, answered: {text[:2000]}"
                        answers.append({"error": text})
                        continue
                    assert not result.isError, f"{name}({args}) failed: {text[:2000]}"
                    answers.append(json.loads(text))
                return answers
    return asyncio.run(asyncio.wait_for(run(), timeout=300))


def listed_tools(env: dict | None = None) -> set[str]:
    """The tools the server lists (after its GMS-version and document filters), as an agent sees them."""
    async def run() -> set[str]:
        async with stdio_client(server_params(env)) as (read, write):
            async with ClientSession(read, write) as session:
                await session.initialize()
                return {t.name for t in (await session.list_tools()).tools}
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


def user_token(actor: str) -> str:
    """A personal access token for another user, minted by the suite's admin through GraphQL."""
    graph = DataHubGraph(DatahubClientConfig(server=GMS_URL, token=TOKEN))
    answer = graph.execute_graphql(
        "mutation t($input: CreateAccessTokenInput!) { createAccessToken(input: $input) { accessToken } }",
        variables={"input": {"type": "PERSONAL", "actorUrn": actor, "duration": "ONE_HOUR", "name": f"{NS} mcp"}},
    )
    return answer["createAccessToken"]["accessToken"]


def test_tools_gated_on_the_gms_version_are_listed():
    """/config reports the version the server shows them to; the document tools also need a document to exist."""
    tools = listed_tools({"TOOLS_IS_USER_ENABLED": "true"})
    assert {"get_aspect_history", "get_me", "search_documents", "grep_documents"} <= tools
    assert {"search", "get_entities", "get_lineage", "get_lineage_paths_between", "list_schema_fields", "get_dataset_queries"} <= tools
    # Off unless asked for, whatever the version.
    assert not {"add_tags", "add_owners", "get_dataset_assertions"} & tools


def test_get_aspect_history_reads_the_stored_versions():
    never = make_dataset_urn(PLATFORM, f"{NS}.never_written", "PROD")
    (history, missing) = call_tools([
        ("get_aspect_history", {"urns": [CLEAN, REPORT], "aspect_names": ["datasetProperties", "upstreamLineage"]}),
        ("get_aspect_history", {"urns": [never, CLEAN], "aspect_names": ["datasetProperties", "chartInfo"]}),
    ])
    pairs = {(r["urn"], r["aspectName"]): r for r in history["results"]}
    props = pairs[(CLEAN, "datasetProperties")]
    assert props["error"] is None
    # The latest value, then the two before it, newest first, anchored on the latest's systemMetadata.version.
    assert props["current"]["version"] == 0 and props["current"]["value"]["description"] == CLEAN_DESCRIPTIONS[2]
    assert [(h["version"], h["value"]["description"]) for h in props["history"]] == [(2, CLEAN_DESCRIPTIONS[1]), (1, CLEAN_DESCRIPTIONS[0])]
    assert props["page"]["anchorSource"] == "systemMetadata" and props["page"]["fromVersion"] == 2 and not props["page"]["hasMore"]
    assert props["current"]["systemMetadata"]["version"] == "3"
    assert all(h["auditStamp"]["actor"] == "urn:li:corpuser:datahub" and h["auditStamp"]["time"] > 0 for h in props["history"])
    # Written once: the current value and no history.
    lineage = pairs[(CLEAN, "upstreamLineage")]
    assert [u["dataset"] for u in lineage["current"]["value"]["upstreams"]] == [RAW] and lineage["history"] == []
    assert pairs[(REPORT, "datasetProperties")]["current"]["value"]["name"] == "order_report"
    assert [u["dataset"] for u in pairs[(REPORT, "upstreamLineage")]["current"]["value"]["upstreams"]] == [CLEAN]
    # The tool's own answers for an entity that does not exist and an aspect it does not read.
    errors = {(r["urn"], r["aspectName"]): r["error"] for r in missing["results"]}
    assert errors[(never, "datasetProperties")] == f"Entity {never} not found"
    assert errors[(CLEAN, "chartInfo")] == "aspect_name is not an allowed governance aspect"
    assert errors[(CLEAN, "datasetProperties")] is None


def test_get_me_answers_the_token_user():
    (me,) = call_tools([("get_me", {})], env={"TOOLS_IS_USER_ENABLED": "true", "DATAHUB_GMS_TOKEN": user_token(USER)})
    user = me["data"]["corpUser"]
    assert me["success"] is True
    assert (user["urn"], user["username"], user["exists"]) == (USER, f"{NS}_alice", True)
    assert user["info"]["displayName"] == "Alice Analyst" and user["info"]["email"] == f"alice@{NS}.example"
    # The tool asks for groups as IsMemberOfGroup / IsMemberOfNativeGroup relationships, which the
    # catalog derives from the user's groupMembership.
    groups = [r["entity"] for r in user["groups"]["relationships"]]
    assert [(g["urn"], g["name"], g["properties"]["displayName"]) for g in groups] == [(GROUP, f"{NS}_analysts", f"{NS} analysts")]


def test_document_tools_find_and_grep_the_document():
    (found, grepped) = call_tools([
        ("search_documents", {"query": "*", "num_results": 50}),
        ("grep_documents", {"urns": [DOCUMENT], "pattern": "kubectl [a-z]+", "context_chars": 10}),
    ])
    assert DOCUMENT in {r["entity"]["urn"] for r in found["searchResults"]}
    doc = next(r["entity"] for r in found["searchResults"] if r["entity"]["urn"] == DOCUMENT)
    assert doc["info"]["title"] == f"{NS} orders runbook"
    assert grepped["documents_with_matches"] == 1 and grepped["results"][0]["urn"] == DOCUMENT
    assert grepped["results"][0]["total_matches"] == 1 and "kubectl rollout" in json.dumps(grepped["results"][0]["matches"])


def test_write_tools_fail_clearly_when_turned_on():
    """TOOLS_IS_MUTATION_ENABLED lists them at this version, but their mutations are not served: the agent reads why."""
    (tagged,) = call_tools([("add_tags", {"tag_urns": [TAG], "entity_urns": [CLEAN]})],
                           env={"TOOLS_IS_MUTATION_ENABLED": "true"}, failing=frozenset({"add_tags"}))
    assert "batchAddTags" in tagged["error"]
