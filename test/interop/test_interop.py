"""The real DataHub Python client (acryl-datahub) against the catalog, through its public API and CLI.

Run with `npm run test:interop` (see tools/interop.ts). Each test that talks to the server runs
against the ingestion service directly and through the front door's /api/gms prefix.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Set, Tuple

import pytest
import requests
from datahub.configuration.common import GraphError, OperationalError
from datahub.emitter.mce_builder import make_lineage_mce
from datahub.emitter.mcp import MetadataChangeProposalWrapper
from datahub.emitter.rest_emitter import DatahubRestEmitter
from datahub.ingestion.graph.client import DataHubGraph
from datahub.metadata.schema_classes import (
    AuditStampClass,
    DatasetLineageTypeClass,
    DatasetPropertiesClass,
    FineGrainedLineageClass,
    FineGrainedLineageDownstreamTypeClass,
    FineGrainedLineageUpstreamTypeClass,
    StatusClass,
    TelemetryClientIdClass,
    UpstreamClass,
    UpstreamLineageClass,
)
from datahub.specific.dataset import DatasetPatchBuilder

from conftest import CLIENT_VERSION, NEO4J_URI, TOKEN, CountingProxy, Target

UNKNOWN_ACTOR = "urn:li:corpuser:unknown"


def properties(emitter: DatahubRestEmitter, *urns: str) -> None:
    """The server's strict existence rule: every dataset named in lineage must exist first."""
    emitter.emit_mcps(
        [
            MetadataChangeProposalWrapper(entityUrn=u, aspect=DatasetPropertiesClass(name=u.split(",")[1], description="interop"))
            for u in urns
        ]
    )


def column_record(up: str, down: str, target: Target) -> UpstreamLineageClass:
    """The tutorial's column-level UpstreamLineage (lineage_emitter_dataset_finegrained)."""
    return UpstreamLineageClass(
        upstreams=[UpstreamClass(dataset=up, type=DatasetLineageTypeClass.TRANSFORMED)],
        fineGrainedLineages=[
            FineGrainedLineageClass(
                upstreamType=FineGrainedLineageUpstreamTypeClass.FIELD_SET,
                upstreams=[target.field(up, "browser")],
                downstreamType=FineGrainedLineageDownstreamTypeClass.FIELD,
                downstreams=[target.field(down, "browser_id")],
            )
        ],
    )


def assert_default_audit(u: UpstreamClass) -> None:
    assert u.auditStamp.time == 0
    assert u.auditStamp.actor == UNKNOWN_ACTOR
    assert u.auditStamp.impersonator is None
    assert u.auditStamp.message is None


# ---------------------------------------------------------------------------------------------
# Connection


def test_the_pinned_client_is_installed() -> None:
    assert CLIENT_VERSION == os.environ.get("INTEROP_CLIENT_VERSION", CLIENT_VERSION)


def test_config_probe_and_graph_connection(target: Target, emitter: DatahubRestEmitter, graph: DataHubGraph) -> None:
    emitter.test_connection()  # raises ConfigurationError unless /config says noCode "true"
    graph.test_connection()


def test_telemetry_read_does_not_fail(graph: DataHubGraph) -> None:
    # The client reads this at start-up when telemetry is on; absent must be a clean None.
    value = graph.get_aspect("urn:li:telemetry:clientId", TelemetryClientIdClass)
    assert value is None or isinstance(value.clientId, str)


# ---------------------------------------------------------------------------------------------
# Emitting lineage


def test_emit_mce_dataset_lineage(target: Target, emitter: DatahubRestEmitter, graph: DataHubGraph) -> None:
    up1, up2, down = target.dataset("mce_up1"), target.dataset("mce_up2"), target.dataset("mce_down")
    properties(emitter, up1, up2, down)
    emitter.emit_mce(make_lineage_mce([up1, up2], down))

    got = graph.get_aspect(down, UpstreamLineageClass)
    assert got is not None
    assert [u.dataset for u in got.upstreams] == [up1, up2]
    for u in got.upstreams:
        assert u.type == DatasetLineageTypeClass.TRANSFORMED
        assert_default_audit(u)
        assert u.created is None and u.properties is None and u.query is None
    assert got.fineGrainedLineages is None


def test_emit_mcp_column_level_record_reads_back_field_by_field(target: Target, emitter: DatahubRestEmitter, graph: DataHubGraph) -> None:
    up, down = target.dataset("fct_users_deleted"), target.dataset("logging_events")
    properties(emitter, up, down)
    record = column_record(up, down, target)
    emitter.emit_mcp(MetadataChangeProposalWrapper(entityUrn=down, aspect=record))

    got = graph.get_aspect(down, UpstreamLineageClass)
    assert got is not None
    assert len(got.upstreams) == 1
    u = got.upstreams[0]
    assert u.dataset == up
    assert u.type == DatasetLineageTypeClass.TRANSFORMED
    assert_default_audit(u)
    assert u.created is None and u.properties is None and u.query is None

    assert got.fineGrainedLineages is not None and len(got.fineGrainedLineages) == 1
    f = got.fineGrainedLineages[0]
    assert f.upstreamType == FineGrainedLineageUpstreamTypeClass.FIELD_SET
    assert f.upstreams == [target.field(up, "browser")]
    assert f.downstreamType == FineGrainedLineageDownstreamTypeClass.FIELD
    assert f.downstreams == [target.field(down, "browser_id")]
    assert f.confidenceScore == 1.0
    assert f.transformOperation is None and f.query is None
    # …and nothing else changed on the way: the whole record is what was sent.
    assert got.to_obj() == record.to_obj()


def test_emit_mcps_batch_creates_entities_and_lineage_together(target: Target, emitter: DatahubRestEmitter, graph: DataHubGraph) -> None:
    a, b, c = target.dataset("batch_a"), target.dataset("batch_b"), target.dataset("batch_c")
    emitter.emit_mcps(
        [
            MetadataChangeProposalWrapper(entityUrn=a, aspect=StatusClass(removed=False)),
            MetadataChangeProposalWrapper(entityUrn=b, aspect=StatusClass(removed=False)),
            MetadataChangeProposalWrapper(entityUrn=c, aspect=StatusClass(removed=False)),
            MetadataChangeProposalWrapper(
                entityUrn=b, aspect=UpstreamLineageClass(upstreams=[UpstreamClass(dataset=a, type=DatasetLineageTypeClass.COPY)])
            ),
            MetadataChangeProposalWrapper(
                entityUrn=c, aspect=UpstreamLineageClass(upstreams=[UpstreamClass(dataset=b, type=DatasetLineageTypeClass.VIEW)])
            ),
        ]
    )
    for down, up, kind in ((b, a, DatasetLineageTypeClass.COPY), (c, b, DatasetLineageTypeClass.VIEW)):
        got = graph.get_aspect(down, UpstreamLineageClass)
        assert got is not None
        assert [(x.dataset, x.type) for x in got.upstreams] == [(up, kind)]
        assert_default_audit(got.upstreams[0])
    status = graph.get_aspect(a, StatusClass)
    assert status is not None and status.removed is False


def _add_fine_grained(builder: DatasetPatchBuilder, fgl: FineGrainedLineageClass) -> None:
    # 1.x renamed the method (the old name still works but warns).
    if hasattr(builder, "add_fine_grained_lineage"):
        builder.add_fine_grained_lineage(fgl)
    else:
        builder.add_fine_grained_upstream_lineage(fgl)


def test_dataset_patch_builder_upstreams(target: Target, emitter: DatahubRestEmitter, graph: DataHubGraph) -> None:
    up1, up2, down = target.dataset("patch_up1"), target.dataset("patch_up2"), target.dataset("patch_down")
    properties(emitter, up1, up2, down)

    builder = DatasetPatchBuilder(down).add_upstream_lineage(UpstreamClass(dataset=up1, type=DatasetLineageTypeClass.TRANSFORMED))
    _add_fine_grained(
        builder,
        FineGrainedLineageClass(
            upstreamType=FineGrainedLineageUpstreamTypeClass.FIELD_SET,
            upstreams=[target.field(up1, "id")],
            downstreamType=FineGrainedLineageDownstreamTypeClass.FIELD,
            downstreams=[target.field(down, "id")],
        ),
    )
    for mcp in builder.build():
        emitter.emit(mcp)
    got = graph.get_aspect(down, UpstreamLineageClass)
    assert got is not None
    assert [(u.dataset, u.type) for u in got.upstreams] == [(up1, DatasetLineageTypeClass.TRANSFORMED)]
    assert_default_audit(got.upstreams[0])
    assert got.fineGrainedLineages is not None and len(got.fineGrainedLineages) == 1
    f = got.fineGrainedLineages[0]
    assert f.upstreams == [target.field(up1, "id")] and f.downstreams == [target.field(down, "id")]
    assert f.downstreamType == FineGrainedLineageDownstreamTypeClass.FIELD
    assert f.confidenceScore == 1.0

    # A second patch adds one upstream and removes the other; re-sending it changes nothing.
    second = (
        DatasetPatchBuilder(down)
        .add_upstream_lineage(UpstreamClass(dataset=up2, type=DatasetLineageTypeClass.COPY))
        .remove_upstream_lineage(up1)
        .build()
    )
    for _ in range(2):
        for mcp in second:
            emitter.emit(mcp)
    got = graph.get_aspect(down, UpstreamLineageClass)
    assert got is not None
    assert [(u.dataset, u.type) for u in got.upstreams] == [(up2, DatasetLineageTypeClass.COPY)]


# ---------------------------------------------------------------------------------------------
# Reading


def test_exists_true_and_false(target: Target, emitter: DatahubRestEmitter, graph: DataHubGraph) -> None:
    present = target.dataset("exists_yes")
    properties(emitter, present)
    assert graph.exists(present) is True
    assert graph.exists(target.dataset("exists_never_ingested")) is False


def test_get_aspect_of_nothing_is_none(target: Target, graph: DataHubGraph) -> None:
    assert graph.get_aspect(target.dataset("never_ingested"), UpstreamLineageClass) is None


# ---------------------------------------------------------------------------------------------
# GraphQL: the tutorial's documents, verbatim

TUTORIAL = {
    "logging_events": "urn:li:dataset:(urn:li:dataPlatform:hive,logging_events,PROD)",
    "fct_users_deleted": "urn:li:dataset:(urn:li:dataPlatform:hive,fct_users_deleted,PROD)",
    "fct_users_created": "urn:li:dataset:(urn:li:dataPlatform:hive,fct_users_created,PROD)",
}
# Downstream of the tutorial's logging_events, so its DOWNSTREAM scroll has degrees to check.
CHAIN = [f"urn:li:dataset:(urn:li:dataPlatform:hive,interop_tutorial.level_{i},PROD)" for i in (1, 2, 3)]

UPDATE_LINEAGE = """mutation updateLineage { updateLineage(input: { edgesToAdd: [{ downstreamUrn: "urn:li:dataset:(urn:li:dataPlatform:hive,logging_events,PROD)", upstreamUrn: "urn:li:dataset:(urn:li:dataPlatform:hive,fct_users_deleted,PROD)" }, { downstreamUrn: "urn:li:dataset:(urn:li:dataPlatform:hive,logging_events,PROD)", upstreamUrn: "urn:li:dataset:(urn:li:dataPlatform:hive,fct_users_created,PROD)" }], edgesToRemove: [] }) }"""
SCROLL_ACROSS_LINEAGE = """query scrollAcrossLineage { scrollAcrossLineage(input: { query: "*", urn: "urn:li:dataset:(urn:li:dataPlatform:hive,logging_events,PROD)", count: 10, direction: DOWNSTREAM, orFilters: [{ and: [{ condition: EQUAL, negated: false, field: "degree", values: ["1", "2", "3+"] }] }] }) { searchResults { degree entity { urn type } } } }"""
UPDATE_LINEAGE_VARS = "mutation add($input: UpdateLineageInput!) { updateLineage(input: $input) }"
SCROLL_VARS = """query scroll($input: ScrollAcrossLineageInput!) {
  scrollAcrossLineage(input: $input) { nextScrollId count total searchResults { degree entity { urn type } } }
}"""


@pytest.fixture(scope="module")
def tutorial(target: Target, emitter: DatahubRestEmitter, graph: DataHubGraph) -> None:
    properties(emitter, *TUTORIAL.values(), *CHAIN)
    edges = [{"upstreamUrn": u, "downstreamUrn": d} for u, d in zip([TUTORIAL["logging_events"], *CHAIN[:-1]], CHAIN)]
    assert graph.execute_graphql(UPDATE_LINEAGE_VARS, variables={"input": {"edgesToAdd": edges, "edgesToRemove": []}}) == {"updateLineage": True}


def degrees(data: Dict) -> Dict[str, int]:
    return {r["entity"]["urn"]: r["degree"] for r in data["scrollAcrossLineage"]["searchResults"]}


def test_update_lineage_tutorial_document(tutorial: None, graph: DataHubGraph) -> None:
    assert graph.execute_graphql(UPDATE_LINEAGE) == {"updateLineage": True}
    got = graph.get_aspect(TUTORIAL["logging_events"], UpstreamLineageClass)
    assert got is not None
    assert {u.dataset for u in got.upstreams} >= {TUTORIAL["fct_users_deleted"], TUTORIAL["fct_users_created"]}


def test_scroll_across_lineage_tutorial_document_degrees(tutorial: None, graph: DataHubGraph) -> None:
    data = graph.execute_graphql(SCROLL_ACROSS_LINEAGE)
    assert degrees(data) == {CHAIN[0]: 1, CHAIN[1]: 2, CHAIN[2]: 3}
    assert {r["entity"]["type"] for r in data["scrollAcrossLineage"]["searchResults"]} == {"DATASET"}


def test_scroll_across_lineage_upstream_and_degree_filter(tutorial: None, graph: DataHubGraph) -> None:
    graph.execute_graphql(UPDATE_LINEAGE)
    up = graph.execute_graphql(SCROLL_VARS, variables={"input": {"urn": TUTORIAL["logging_events"], "direction": "UPSTREAM", "query": "*", "count": 10}})
    assert degrees(up) == {TUTORIAL["fct_users_deleted"]: 1, TUTORIAL["fct_users_created"]: 1}
    only_two = graph.execute_graphql(
        SCROLL_VARS,
        variables={"input": {"urn": TUTORIAL["logging_events"], "direction": "DOWNSTREAM", "count": 10,
                             "orFilters": [{"and": [{"field": "degree", "values": ["2"]}]}]}},
    )
    assert degrees(only_two) == {CHAIN[1]: 2}
    assert only_two["scrollAcrossLineage"]["total"] == 1


def test_graphql_error_is_the_clients_error_with_our_message(target: Target, graph: DataHubGraph) -> None:
    missing = target.dataset("graphql_missing_downstream")
    with pytest.raises(GraphError) as err:
        graph.execute_graphql(UPDATE_LINEAGE_VARS, variables={"input": {"edgesToAdd": [{"upstreamUrn": TUTORIAL["fct_users_deleted"], "downstreamUrn": missing}], "edgesToRemove": []}})
    assert f"Cannot upsert lineage as downstream urn {missing} doesn't exist" in str(err.value)

    with pytest.raises(GraphError) as err:
        graph.execute_graphql(SCROLL_VARS, variables={"input": {"urn": "urn:li:dataset:(broken", "direction": "DOWNSTREAM"}})
    assert "Invalid urn: urn:li:dataset:(broken" in str(err.value)


# ---------------------------------------------------------------------------------------------
# The CLI


def cli(target: Target, *args: str) -> subprocess.CompletedProcess:
    exe = Path(sys.executable).parent / "datahub"
    env = {**os.environ, "DATAHUB_GMS_URL": target.gms_url, "DATAHUB_GMS_TOKEN": TOKEN}
    return subprocess.run([str(exe), *args], env=env, capture_output=True, text=True, timeout=120)


def test_cli_put_and_get(target: Target, emitter: DatahubRestEmitter, graph: DataHubGraph, tmp_path: Path) -> None:
    up, down = target.dataset("cli_up"), target.dataset("cli_down")
    props = {"name": "cli_down", "description": "put by the datahub CLI", "customProperties": {"origin": "interop"}}
    (tmp_path / "props.json").write_text(json.dumps(props))
    r = cli(target, "put", "--urn", down, "--aspect", "datasetProperties", "-d", str(tmp_path / "props.json"))
    assert r.returncode == 0, r.stdout + r.stderr
    properties(emitter, up)
    lineage = {"upstreams": [{"auditStamp": {"time": 0, "actor": UNKNOWN_ACTOR}, "dataset": up, "type": "TRANSFORMED"}]}
    (tmp_path / "lineage.json").write_text(json.dumps(lineage))
    r = cli(target, "put", "--urn", down, "-a", "upstreamLineage", "-d", str(tmp_path / "lineage.json"), "--run-id", "interop-cli")
    assert r.returncode == 0, r.stdout + r.stderr

    got = graph.get_aspect(down, DatasetPropertiesClass)
    assert got is not None and got.description == props["description"] and got.customProperties == props["customProperties"]

    r = cli(target, "get", "--urn", down, "--aspect", "datasetProperties", "--aspect", "upstreamLineage")
    assert r.returncode == 0, r.stdout + r.stderr
    out = json.loads(r.stdout[r.stdout.index("{"):])
    assert out["datasetProperties"]["description"] == props["description"]
    assert out["upstreamLineage"]["upstreams"][0]["dataset"] == up
    assert out["upstreamLineage"]["upstreams"][0]["type"] == "TRANSFORMED"


def test_cli_get_of_unknown_entity(target: Target) -> None:
    urn = target.dataset("cli_never_ingested")
    r = cli(target, "get", "--urn", urn, "--aspect", "datasetProperties")
    # The server answers with only the synthesised key aspect, which the CLI reads as "not found":
    # 1.x says so and exits 1, 0.13 prints an empty object.
    if r.returncode == 0:
        assert json.loads(r.stdout) == {}, r.stdout
    else:
        assert f"urn {urn} not found" in r.stdout + r.stderr, r.stdout + r.stderr


# ---------------------------------------------------------------------------------------------
# restoreIndices after the derived edges were deleted behind the catalog's back


def edges_of(prefix: str) -> Set[Tuple[str, str, str]]:
    from neo4j import GraphDatabase

    with GraphDatabase.driver(NEO4J_URI) as driver:
        records, _, _ = driver.execute_query(
            "MATCH (a:Entity)-[r]->(b:Entity) WHERE type(r) <> 'HAS_ASPECT' AND (a.urn CONTAINS $p OR b.urn CONTAINS $p) "
            "RETURN type(r) AS t, a.urn AS a, b.urn AS b",
            p=prefix, database_="neo4j",
        )
    return {(r["t"], r["a"], r["b"]) for r in records}


def delete_edges_of(prefix: str) -> int:
    from neo4j import GraphDatabase

    with GraphDatabase.driver(NEO4J_URI) as driver:
        records, _, _ = driver.execute_query(
            "MATCH (a:Entity)-[r]->(b:Entity) WHERE type(r) <> 'HAS_ASPECT' AND (a.urn CONTAINS $p OR b.urn CONTAINS $p) "
            "DELETE r RETURN count(r) AS n",
            p=prefix, database_="neo4j",
        )
    return records[0]["n"]


def restore(graph: DataHubGraph, target: Target, urn_pattern: str) -> None:
    if hasattr(graph, "restore_indices"):
        graph.restore_indices(urn_pattern=urn_pattern)
    else:
        # acryl-datahub < 1.0 has no client method; this is the call DataHub's restore-indices docs give.
        key = "urnLike" if "%" in urn_pattern else "urn"
        r = requests.post(f"{target.gms_url}/operations?action=restoreIndices", json={key: urn_pattern},
                          headers={"Authorization": f"Bearer {TOKEN}", "X-RestLi-Protocol-Version": "2.0.0"}, timeout=60)
        assert r.status_code == 200, r.text


def test_restore_indices_urn_and_urn_like(target: Target, emitter: DatahubRestEmitter, graph: DataHubGraph) -> None:
    prefix = f"{target.ns}.restore_"
    src, mid, dst = target.dataset("restore_src"), target.dataset("restore_mid"), target.dataset("restore_dst")
    properties(emitter, src, mid, dst)
    emitter.emit_mcp(MetadataChangeProposalWrapper(entityUrn=mid, aspect=column_record(src, mid, target)))
    emitter.emit_mce(make_lineage_mce([mid], dst))
    scroll = {"input": {"urn": src, "direction": "DOWNSTREAM", "count": 10}}
    assert degrees(graph.execute_graphql(SCROLL_VARS, variables=scroll)) == {mid: 1, dst: 2}

    before = edges_of(prefix)
    kinds = {t for t, _, _ in before}
    assert {"LINEAGE", "DownstreamOf"} <= kinds, before
    column_edges = {e for e in before if e[0] == "LINEAGE" and e[1].startswith("urn:li:schemaField:")}
    assert column_edges, "the column-level record should have produced schemaField LINEAGE edges"

    assert delete_edges_of(prefix) == len(before)
    assert edges_of(prefix) == set()
    assert degrees(graph.execute_graphql(SCROLL_VARS, variables=scroll)) == {}

    # urn form: only that entity's edges come back.
    restore(graph, target, mid)
    owned_by_mid = edges_of(prefix)
    assert owned_by_mid and owned_by_mid < before
    assert column_edges <= owned_by_mid
    assert degrees(graph.execute_graphql(SCROLL_VARS, variables=scroll)) == {mid: 1}

    # urnLike form (SQL LIKE): the whole namespace comes back, exactly as it was.
    restore(graph, target, f"urn:li:dataset:(urn:li:dataPlatform:hive,{prefix}%")
    assert edges_of(prefix) == before
    assert degrees(graph.execute_graphql(SCROLL_VARS, variables=scroll)) == {mid: 1, dst: 2}
    got = graph.get_aspect(mid, UpstreamLineageClass)
    assert got is not None and got.to_obj() == column_record(src, mid, target).to_obj()


# ---------------------------------------------------------------------------------------------
# Bad input: the client's error type, our 4xx message, exactly one request (no retries)


@pytest.fixture(scope="module")
def counted(counting_proxy: Tuple[CountingProxy, str]) -> Tuple[CountingProxy, DatahubRestEmitter, str]:
    proxy, url = counting_proxy
    return proxy, DatahubRestEmitter(gms_server=url, token=TOKEN), url


def _single_post(proxy: CountingProxy, base: str, resource: str) -> Tuple[str, str, int]:
    prefix = base[len(proxy.url):]
    calls = proxy.calls("POST", f"{prefix}/{resource}")
    assert len(calls) == 1, f"expected one request and no retries, got {calls}"
    return calls[0]


def test_malformed_urn_is_rejected_once_with_our_message(counted: Tuple[CountingProxy, DatahubRestEmitter, str]) -> None:
    proxy, emitter, base = counted
    proxy.reset()
    bad = "urn:li:dataset:(urn:li:dataPlatform:hive,unbalanced"
    with pytest.raises(OperationalError) as err:
        emitter.emit_mcp(MetadataChangeProposalWrapper(entityUrn=bad, aspect=StatusClass(removed=False)))
    assert err.value.info.get("status") == 422, err.value.info
    assert "mismatched paren nesting" in str(err.value) or "Invalid urn" in str(err.value), str(err.value)
    assert bad in str(err.value)
    assert _single_post(proxy, base, "aspects")[2] == 422


def test_lineage_naming_a_missing_dataset_is_rejected_once(target: Target, emitter: DatahubRestEmitter, graph: DataHubGraph,
                                                           counted: Tuple[CountingProxy, DatahubRestEmitter, str]) -> None:
    proxy, counted_emitter, base = counted
    down, missing = target.dataset("bad_down"), target.dataset("bad_missing_upstream")
    properties(emitter, down)
    lineage = UpstreamLineageClass(upstreams=[UpstreamClass(dataset=missing, type=DatasetLineageTypeClass.TRANSFORMED)])

    proxy.reset()
    with pytest.raises(OperationalError) as err:
        counted_emitter.emit_mcp(MetadataChangeProposalWrapper(entityUrn=down, aspect=lineage))
    assert err.value.info.get("status") == 422, err.value.info
    assert missing in str(err.value)
    _single_post(proxy, base, "aspects")

    proxy.reset()
    with pytest.raises(OperationalError) as err:
        counted_emitter.emit_mcps([MetadataChangeProposalWrapper(entityUrn=down, aspect=lineage)])
    assert missing in str(err.value)
    _single_post(proxy, base, "aspects")

    proxy.reset()
    with pytest.raises(OperationalError) as err:
        counted_emitter.emit_mce(make_lineage_mce([missing], down))
    assert missing in str(err.value)
    _single_post(proxy, base, "entities")

    # Nothing was written by the rejected calls.
    assert graph.get_aspect(down, UpstreamLineageClass) is None


def test_bad_token_is_a_401_once(target: Target, counted: Tuple[CountingProxy, DatahubRestEmitter, str]) -> None:
    proxy, _, base = counted
    stranger = DatahubRestEmitter(gms_server=base, token="not.a.token")
    proxy.reset()
    with pytest.raises(OperationalError) as err:
        stranger.emit_mcp(MetadataChangeProposalWrapper(entityUrn=target.dataset("auth_probe"), aspect=StatusClass(removed=False)))
    assert err.value.info.get("status") == 401, err.value.info
    assert _single_post(proxy, base, "aspects")[2] == 401
