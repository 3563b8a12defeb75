"""DataHub Actions (acryl-datahub-actions, unchanged) hears every lineage change (issue 26).

A real `datahub actions` pipeline with the `datahub-cloud` event source polls the ingestion service's
Events API (GET /openapi/v1/events/poll), filters EntityChangeEvents of category LINEAGE and hands
them to the suite's own action (actions_recorder.py), which appends each to a file. The suite makes
lineage changes through every door — GraphQL updateLineage (front door), Rest.li ingestProposal,
OpenAPI v3, OpenLineage — and checks the action received exactly those edge changes, in commit
order. Then it stops the pipeline cleanly, changes more while it is down, starts it again: it
resumes from the offset it stored on the server (a platformResource's platformResourceInfo, which
the source reads and writes through the SDK's graph client) with nothing lost and nothing repeated.
Last, a new pipeline with `lookback_days` hears the whole story again, in the same order.

The source's own behaviour this relies on (acryl-datahub-actions 1.7.0.17): without a stored offset
its first poll has no offsetId and starts at the tail, so changes are made only after a first poll
answered; it stores its offset only on a clean stop (SIGINT/SIGTERM), and the offset it stores is
the one before its last poll, so it is stopped only once idle (a poll begun after the last event was
acted on), else the last batch would be delivered again (at least once).

The pipeline reaches the ingestion service through a counting proxy (conftest.CountingProxy), which
shows when it polls and which endpoint stored its offset.
"""
from __future__ import annotations

import json
import os
import secrets
import signal
import subprocess
import sys
import time
import urllib.parse
import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path
from typing import Callable, Iterator, List, Optional, Sequence, Tuple

import pytest

# Only the suites whose requirements pin acryl-datahub-actions (1.7.0.17) run this file.
pytest.importorskip("datahub_actions", reason="acryl-datahub-actions is not pinned in this suite's requirements")

import requests  # noqa: E402
import yaml  # noqa: E402
from datahub.emitter.mce_builder import make_schema_field_urn
from datahub.emitter.mcp import MetadataChangeProposalWrapper
from datahub.ingestion.graph.client import DataHubGraph, DatahubClientConfig
from datahub.metadata.schema_classes import (
    DatasetLineageTypeClass,
    DatasetPropertiesClass,
    FineGrainedLineageClass,
    FineGrainedLineageDownstreamTypeClass,
    FineGrainedLineageUpstreamTypeClass,
    PlatformResourceInfoClass,
    UpstreamClass,
    UpstreamLineageClass,
)

from datahub_actions.plugin.source.acryl.datahub_cloud_events_consumer_offsets_store import (  # noqa: E402
    DataHubEventsConsumerPlatformResourceOffsetsStore,
)

from conftest import GMS_URL, RUN_ID, TOKEN, CountingProxy, Target, _start_proxy, _target

HERE = Path(__file__).resolve().parent
POLL_PATH = "/openapi/v1/events/poll"
OFFSET_ASPECT_KEY = "com.linkedin.platformresource.PlatformResourceInfo"
# How long a change may take to reach the action: the source long-polls 2 s at a time.
DELIVERY_TIMEOUT_S = 60
UPDATE_LINEAGE = "mutation update($input: UpdateLineageInput!) { updateLineage(input: $input) }"
HEADERS = {"Authorization": f"Bearer {TOKEN}"}


# ---------------------------------------------------------------------------------------------
# The offset store: platformResource / platformResourceInfo, as the source's own store class
# writes and reads it, through both of the SDK's ingestion paths.


@pytest.mark.parametrize("openapi", [False, True], ids=["restli", "openapi_v3"])
def test_the_sources_offset_store_round_trips(target: Target, openapi: bool) -> None:
    parsed = urllib.parse.urlsplit(target.gms_url)
    proxy = _start_proxy(f"{parsed.scheme}://{parsed.netloc}")
    try:
        graph = DataHubGraph(DatahubClientConfig(server=proxy.url + parsed.path, token=TOKEN, openapi_ingestion=openapi))
        consumer_id = f"urn:li:dataHubAction:offsets_{target.ns}_{'openapi' if openapi else 'restli'}"
        store = DataHubEventsConsumerPlatformResourceOffsetsStore(graph, consumer_id)
        urn = store.state_resource_urn
        raw_url = f"{target.gms_url}/aspects/{urllib.parse.quote(urn, safe='')}"
        params = {"aspect": "platformResourceInfo", "version": "0"}

        # Nothing stored yet: a 404, which the source reads as "no offset".
        assert requests.get(raw_url, params=params, headers=HEADERS, timeout=30).status_code == 404
        assert store.load_offset_id() is None

        store.store_offset_id("eyJQbGF0Zm9ybUV2ZW50X3YxLTAiOjQyfQ==")
        writes = proxy.calls("POST", parsed.path + ("/openapi/v3/entity/platformResource" if openapi else "/aspects?action=ingestProposal"))
        assert [status for _, _, status in writes] == [200], proxy.requests
        assert store.load_offset_id() == "eyJQbGF0Zm9ybUV2ZW50X3YxLTAiOjQyfQ=="

        # Read back verbatim, under the record's full name, as the SDK's get_aspect expects.
        r = requests.get(raw_url, params=params, headers=HEADERS, timeout=30)
        assert r.status_code == 200, r.text
        stored = r.json()["aspect"][OFFSET_ASPECT_KEY]
        assert set(stored) == {"resourceType", "primaryKey", "value"}
        assert stored["resourceType"] == "eventConsumerState" and stored["primaryKey"] == consumer_id
        value = stored["value"]
        assert (value["contentType"], value["schemaType"], value["schemaRef"]) == ("JSON", "JSON", "EventConsumerState@1")
        state = json.loads(value["blob"])
        assert state["VERSION"] == 1 and state["offset_id"] == "eyJQbGF0Zm9ybUV2ZW50X3YxLTAiOjQyfQ=="
        assert abs(state["timestamp"] - time.time()) < 600
        typed = graph.get_aspect(urn, PlatformResourceInfoClass)
        assert typed is not None and typed.value is not None and typed.value.blob.decode() == value["blob"]

        # The next stop overwrites it.
        store.store_offset_id("eyJQbGF0Zm9ybUV2ZW50X3YxLTAiOjQzfQ==")
        assert store.load_offset_id() == "eyJQbGF0Zm9ybUV2ZW50X3YxLTAiOjQzfQ=="
    finally:
        assert proxy.server is not None
        proxy.server.shutdown()


# ---------------------------------------------------------------------------------------------
# A running pipeline


@dataclass
class Pipeline:
    """One `datahub actions` process running one pipeline, seen through a counting proxy."""

    name: str
    proc: subprocess.Popen
    events_file: Path
    log_file: Path
    proxy: CountingProxy

    def log_tail(self, lines: int = 60) -> str:
        try:
            return "\n".join(self.log_file.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return "(no log)"

    def received(self) -> List[dict]:
        if not self.events_file.exists():
            return []
        return [json.loads(line) for line in self.events_file.read_text().splitlines() if line.strip()]

    def polls(self) -> List[Tuple[str, str, int]]:
        return self.proxy.calls("GET", POLL_PATH)

    def wait(self, what: str, done: Callable[[], bool], timeout: float = DELIVERY_TIMEOUT_S) -> None:
        deadline = time.monotonic() + timeout
        while not done():
            if self.proc.poll() is not None:
                pytest.fail(f"the pipeline exited ({self.proc.returncode}) while waiting for {what}:\n{self.log_tail()}")
            if time.monotonic() > deadline:
                pytest.fail(f"timed out after {timeout} s waiting for {what}; polls {self.polls()[-5:]}\n{self.log_tail()}")
            time.sleep(0.2)

    def wait_polling(self) -> None:
        """Until one poll has been answered: from then on every change is after its offset."""
        self.wait("the first answered poll", lambda: any(status == 200 for _, _, status in self.polls()))

    def wait_for(self, count: int) -> List[dict]:
        self.wait(f"{count} events (have {len(self.received())})", lambda: len(self.received()) >= count)
        return self.received()

    def wait_idle(self) -> None:
        """Until a poll begun after every event so far was acted on has been answered.

        The proxy records a poll when it is answered; of two answered after now, the second was sent
        after now, i.e. after the source acked every event in the file and moved its safe offset.
        """
        seen = len(self.polls())
        self.wait("two more polls", lambda: len(self.polls()) >= seen + 2)

    def stop(self) -> None:
        """A clean stop, as a container runtime does it: SIGTERM; the source stores its offset."""
        self.proc.send_signal(signal.SIGTERM)
        try:
            code = self.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            pytest.fail(f"the pipeline did not stop within 60 s of SIGTERM:\n{self.log_tail()}")
        assert code == 0, f"the pipeline exited {code} on SIGTERM:\n{self.log_tail()}"
        # The source logs and carries on past some failures (an offset it cannot read is "no offset").
        problems = [line for line in self.log_file.read_text(errors="replace").splitlines() if " ERROR " in line or "Traceback" in line]
        assert not problems, "the pipeline logged errors:\n" + "\n".join(problems)


def start_pipeline(name: str, work: Path, run: int, **source_config: object) -> Pipeline:
    parsed = urllib.parse.urlsplit(GMS_URL)
    proxy = _start_proxy(f"{parsed.scheme}://{parsed.netloc}")
    events_file = work / f"events-{run}.jsonl"
    config = {
        "name": name,
        "datahub": {"server": proxy.url + parsed.path, "token": TOKEN},
        "source": {"type": "datahub-cloud", "config": {"topics": "PlatformEvent_v1", **source_config}},
        "filter": {"event_type": "EntityChangeEvent_v1", "event": {"category": "LINEAGE"}},
        "action": {"type": "actions_recorder:RecordingAction", "config": {"path": str(events_file)}},
    }
    config_file = work / f"{name}-{run}.yaml"
    config_file.write_text(yaml.safe_dump(config))
    log_file = work / f"pipeline-{run}.log"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in [str(HERE), os.environ.get("PYTHONPATH", "")] if p)}
    exe = Path(sys.executable).parent / "datahub"
    with open(log_file, "wb") as log:
        proc = subprocess.Popen([str(exe), "actions", "-c", str(config_file)], env=env, stdout=log, stderr=subprocess.STDOUT)
    return Pipeline(name, proc, events_file, log_file, proxy)


@pytest.fixture
def pipelines() -> Iterator[List[Pipeline]]:
    started: List[Pipeline] = []
    yield started
    for p in started:
        if p.proc.poll() is None:
            p.proc.kill()
            p.proc.wait()
        assert p.proxy.server is not None
        p.proxy.server.shutdown()


# ---------------------------------------------------------------------------------------------
# The changes, through every door, and what each must be heard as


# (operation, upstreamUrn, downstreamUrn, the entity whose aspect declares the edge, its aspect, relationship)
Change = Tuple[str, str, str, str, str, str]


def ds_edge(op: str, up: str, down: str) -> Change:
    return (op, up, down, down, "upstreamLineage", "DownstreamOf")


def field_edge(op: str, up: str, down: str, owner: str) -> Change:
    return (op, up, down, owner, "upstreamLineage", "DownstreamOf")


def job_input(op: str, dataset: str, job: str) -> Change:
    return (op, dataset, job, job, "dataJobInputOutput", "Consumes")


def job_output(op: str, job: str, dataset: str) -> Change:
    return (op, job, dataset, job, "dataJobInputOutput", "Produces")


def heard(record: dict) -> Change:
    """What the action received, as a Change; checks the parts of the ECE that must hold for any edge."""
    assert record["event_type"] == "EntityChangeEvent_v1", record
    e = record["event"]
    assert e["category"] == "LINEAGE" and e["operation"] in ("ADD", "REMOVE"), e
    assert e["version"] == 0, e
    assert e["auditStamp"]["actor"].startswith("urn:li:corpuser:") and e["auditStamp"]["time"] > 0, e
    p = e["parameters"]
    assert e["entityType"] == e["entityUrn"].split(":")[2], e
    # The modifier is the other end; direction says on which side of entityUrn it is.
    if p["direction"] == "UPSTREAM":
        assert e["modifier"] == p["upstreamUrn"], e
    else:
        assert p["direction"] == "DOWNSTREAM" and e["modifier"] == p["downstreamUrn"], e
    return (e["operation"], p["upstreamUrn"], p["downstreamUrn"], e["entityUrn"], p["aspectName"], p["relationshipType"])


def assert_heard_in_order(records: Sequence[dict], steps: Sequence[Tuple[str, List[Change]]], log: str) -> None:
    """The records are the steps' changes, step after step (within one commit, in any order)."""
    got = [heard(r) for r in records]
    expected_count = sum(len(changes) for _, changes in steps)
    assert len(got) == expected_count, f"expected {expected_count} changes, received {len(got)}:\n" + "\n".join(map(str, got)) + f"\n{log}"
    at = 0
    for label, changes in steps:
        chunk = got[at : at + len(changes)]
        assert sorted(chunk) == sorted(changes), f"step '{label}' (events {at}..{at + len(changes) - 1}): received\n" + "\n".join(map(str, chunk)) + "\nexpected\n" + "\n".join(map(str, changes))
        at += len(changes)


class Doors:
    """One lineage change through each door the catalog has."""

    def __init__(self, ns: str) -> None:
        self.ns = ns
        self.restli = DataHubGraph(DatahubClientConfig(server=GMS_URL, token=TOKEN))
        self.openapi = DataHubGraph(DatahubClientConfig(server=GMS_URL, token=TOKEN, openapi_ingestion=True))
        # GraphQL through the gateway: the front door the UI and the SDK's GraphQL calls use.
        self.front = DataHubGraph(DatahubClientConfig(server=_target("front_door").gms_url, token=TOKEN))
        self.clock = datetime(2026, 1, 1, tzinfo=timezone.utc)

    def dataset(self, name: str) -> str:
        return f"urn:li:dataset:(urn:li:dataPlatform:hive,{self.ns}.{name},PROD)"

    def job(self, name: str) -> str:
        # The OpenLineage door's naming (docs/wire-contract.md §OpenLineage): airflow producer, flow = the name's first part.
        return f"urn:li:dataJob:(urn:li:dataFlow:(airflow,{name},{self.ns}),{name})"

    def create(self, *urns: str) -> None:
        for u in urns:
            self.restli.emit_mcp(MetadataChangeProposalWrapper(entityUrn=u, aspect=DatasetPropertiesClass(name=u.split(",")[1])))

    def graphql(self, add: Sequence[Tuple[str, str]] = (), remove: Sequence[Tuple[str, str]] = ()) -> None:
        edges = lambda pairs: [{"upstreamUrn": u, "downstreamUrn": d} for u, d in pairs]  # noqa: E731
        got = self.front.execute_graphql(UPDATE_LINEAGE, variables={"input": {"edgesToAdd": edges(add), "edgesToRemove": edges(remove)}})
        assert got == {"updateLineage": True}

    @staticmethod
    def lineage(ups: Sequence[str], fields: Sequence[Tuple[str, str]] = ()) -> UpstreamLineageClass:
        return UpstreamLineageClass(
            upstreams=[UpstreamClass(dataset=u, type=DatasetLineageTypeClass.TRANSFORMED) for u in ups],
            fineGrainedLineages=[
                FineGrainedLineageClass(
                    upstreamType=FineGrainedLineageUpstreamTypeClass.FIELD_SET, upstreams=[up],
                    downstreamType=FineGrainedLineageDownstreamTypeClass.FIELD, downstreams=[down],
                )
                for up, down in fields
            ] or None,
        )

    def restli_lineage(self, down: str, ups: Sequence[str], fields: Sequence[Tuple[str, str]] = ()) -> None:
        self.restli.emit_mcp(MetadataChangeProposalWrapper(entityUrn=down, aspect=self.lineage(ups, fields)))

    def openapi_lineage(self, down: str, ups: Sequence[str], fields: Sequence[Tuple[str, str]] = ()) -> None:
        self.openapi.emit_mcp(MetadataChangeProposalWrapper(entityUrn=down, aspect=self.lineage(ups, fields)))

    def openlineage(self, job: str, inputs: Sequence[str], outputs: Sequence[str]) -> None:
        """A COMPLETE run event: the job's inputs and outputs become exactly these."""
        self.clock += timedelta(minutes=1)
        ol = lambda names: [{"namespace": "hive", "name": f"{self.ns}.{n}"} for n in names]  # noqa: E731
        event = {
            "eventType": "COMPLETE",
            "eventTime": self.clock.isoformat().replace("+00:00", "Z"),
            "producer": "https://github.com/OpenLineage/OpenLineage/tree/1.20.0/integration/airflow",
            "schemaURL": "https://openlineage.io/spec/2-0-2/OpenLineage.json#/definitions/RunEvent",
            "run": {"runId": str(uuid.uuid4())},
            "job": {"namespace": self.ns, "name": job},
            "inputs": ol(inputs),
            "outputs": ol(outputs),
        }
        r = requests.post(f"{GMS_URL}/openapi/openlineage/api/v1/lineage", json=event, headers=HEADERS, timeout=30)
        assert r.status_code in (200, 201), r.text

    def field(self, dataset: str, path: str) -> str:
        return make_schema_field_urn(dataset, path)


def stored_offset(consumer_id: str) -> Optional[str]:
    graph = DataHubGraph(DatahubClientConfig(server=GMS_URL, token=TOKEN))
    return DataHubEventsConsumerPlatformResourceOffsetsStore(graph, consumer_id).load_offset_id()


def test_an_actions_pipeline_hears_every_lineage_change_and_resumes_after_a_stop(pipelines: List[Pipeline], tmp_path: Path) -> None:
    ns = f"interop_{RUN_ID}_actions"
    name = f"lineage_listener_{secrets.token_hex(4)}"
    consumer_id = f"urn:li:dataHubAction:{name}"
    doors = Doors(ns)
    a, b, c, d, e = (doors.dataset(n) for n in "abcde")
    job = doors.job("load_d")
    bx, dy = doors.field(b, "x"), doors.field(d, "y")
    # The strict existence rule: datasets named in lineage exist first. These writes change no lineage.
    doors.create(a, b, c, d, e)

    # --- Run 1: every door while the pipeline listens; the changes follow each other without waiting.
    first = start_pipeline(name, tmp_path, 1)
    pipelines.append(first)
    first.wait_polling()
    assert stored_offset(consumer_id) is None
    run1: List[Tuple[str, List[Change]]] = []

    doors.graphql(add=[(a, b), (a, c)])
    run1.append(("GraphQL updateLineage adds a→b, a→c", [ds_edge("ADD", a, b), ds_edge("ADD", a, c)]))
    doors.restli_lineage(d, [b], fields=[(bx, dy)])
    run1.append(("Rest.li upstreamLineage of d = [b] with b.x→d.y", [ds_edge("ADD", b, d), field_edge("ADD", bx, dy, d)]))
    doors.openapi_lineage(d, [c])
    run1.append(("OpenAPI v3 upstreamLineage of d = [c]", [ds_edge("ADD", c, d), ds_edge("REMOVE", b, d), field_edge("REMOVE", bx, dy, d)]))
    doors.graphql(remove=[(a, c)])
    run1.append(("GraphQL updateLineage removes a→c", [ds_edge("REMOVE", a, c)]))
    doors.openlineage("load_d", inputs=["e"], outputs=["d"])
    run1.append(("OpenLineage COMPLETE load_d: e → job → d", [job_input("ADD", e, job), job_output("ADD", job, d)]))

    expected1 = sum(len(changes) for _, changes in run1)
    first.wait_for(expected1)
    first.wait_idle()  # nothing more arrives, and the source's safe offset is past every event
    assert_heard_in_order(first.received(), run1, first.log_tail())

    # --- A clean stop stores the offset on the server, through the SDK's graph client.
    first.stop()
    offset = stored_offset(consumer_id)
    assert offset, f"no offset stored for {consumer_id}:\n{first.log_tail()}"
    offset_writes = first.proxy.calls("POST", "/aspects?action=ingestProposal") + first.proxy.calls("POST", "/openapi/v3/entity/platformResource")
    assert [status for _, _, status in offset_writes] == [200], first.proxy.requests[-10:]

    # --- While it is down: more changes, through three doors.
    run2: List[Tuple[str, List[Change]]] = []
    doors.restli_lineage(b, [e])
    run2.append(("Rest.li upstreamLineage of b = [e] (was [a])", [ds_edge("ADD", e, b), ds_edge("REMOVE", a, b)]))
    doors.graphql(add=[(a, c)])
    run2.append(("GraphQL updateLineage adds a→c again", [ds_edge("ADD", a, c)]))
    doors.openlineage("load_d", inputs=["e"], outputs=[])
    run2.append(("OpenLineage COMPLETE load_d without outputs", [job_output("REMOVE", job, d)]))

    # --- Run 2: the same pipeline resumes from its stored offset.
    second = start_pipeline(name, tmp_path, 2)
    pipelines.append(second)
    second.wait_polling()
    first_poll = second.polls()[0][1]
    assert urllib.parse.parse_qs(urllib.parse.urlsplit(first_poll).query).get("offsetId") == [offset], first_poll
    doors.openapi_lineage(c, [a, b])
    run2.append(("OpenAPI v3 upstreamLineage of c = [a, b]", [ds_edge("ADD", b, c)]))  # a→c is already there

    expected2 = sum(len(changes) for _, changes in run2)
    second.wait_for(expected2)
    second.wait_idle()
    assert_heard_in_order(second.received(), run2, second.log_tail())
    second.stop()
    assert stored_offset(consumer_id) not in (None, offset)

    # --- A new pipeline with lookback_days starts a day back instead of at the tail: it hears all of
    # the above again, in the same order (among whatever else the suite changed that day).
    late = start_pipeline(f"{name}_late", tmp_path, 3, lookback_days=1)
    pipelines.append(late)
    mine = lambda: [r for r in late.received() if ns in r["event"]["entityUrn"]]  # noqa: E731
    late.wait(f"{expected1 + expected2} events of this test", lambda: len(mine()) >= expected1 + expected2)
    late.wait_idle()
    assert "offsetId=" not in late.polls()[0][1] and "lookbackWindowDays=1" in late.polls()[0][1]
    assert_heard_in_order(mine(), run1 + run2, late.log_tail())
    late.stop()
