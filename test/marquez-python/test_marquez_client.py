"""marquez-python 0.50.0 (PyPI) against the catalog's Marquez API, on the ingestion service and
through the front door: every read method the client has that the catalog serves, and its tag
writes, over events posted with openlineage-python (docs/marquez-compatibility.md).

    <id>_src (a, b) ──► [<id>_load] ──► <id>_dst (x ← a)
"""
from __future__ import annotations

import uuid
from datetime import datetime, timezone

import pytest
from marquez_client import MarquezClient
from marquez_client.errors import APIError
from openlineage.client import OpenLineageClient
from openlineage.client.event_v2 import InputDataset, Job, OutputDataset, Run, RunEvent, RunState
from openlineage.client.facet_v2 import column_lineage_dataset, schema_dataset
from openlineage.client.transport.http import ApiKeyTokenProvider, HttpConfig, HttpTransport

from conftest import FRONT_DOOR_URL, GMS_URL, RUN_ID, TOKEN

JOB_NS = f"{RUN_ID}jobs"
DS_NS = f"{RUN_ID}db"
SRC, DST, JOB = f"{RUN_ID}_src", f"{RUN_ID}_dst", f"{RUN_ID}_load"
RUN = str(uuid.uuid4())


def schema(*names: str) -> schema_dataset.SchemaDatasetFacet:
    return schema_dataset.SchemaDatasetFacet(fields=[schema_dataset.SchemaDatasetFacetFields(name=n, type="INTEGER") for n in names])


@pytest.fixture(scope="module", autouse=True)
def graph() -> None:
    transport = HttpTransport(HttpConfig(url=GMS_URL, endpoint="api/v1/lineage", auth=ApiKeyTokenProvider({"apiKey": TOKEN})))
    client = OpenLineageClient(transport=transport)
    lineage = column_lineage_dataset.ColumnLineageDatasetFacet(
        fields={"x": column_lineage_dataset.Fields(inputFields=[column_lineage_dataset.InputField(namespace=DS_NS, name=SRC, field="a")])}
    )
    now = datetime.now(timezone.utc)
    client.emit(
        RunEvent(
            eventType=RunState.COMPLETE,
            eventTime=now.isoformat(),
            run=Run(runId=RUN),
            job=Job(namespace=JOB_NS, name=JOB),
            producer="https://github.com/OpenLineage/OpenLineage/tree/1.54.0/client/python",
            inputs=[InputDataset(namespace=DS_NS, name=SRC, facets={"schema": schema("a", "b")})],
            outputs=[OutputDataset(namespace=DS_NS, name=DST, facets={"schema": schema("x"), "columnLineage": lineage})],
        )
    )


@pytest.fixture(params=["ingestion", "front door"])
def marquez(request) -> MarquezClient:
    return MarquezClient(GMS_URL if request.param == "ingestion" else FRONT_DOOR_URL, api_key=TOKEN)


def test_namespaces(marquez: MarquezClient) -> None:
    names = [n["name"] for n in marquez.list_namespaces(limit=100000)["namespaces"]]
    assert {JOB_NS, DS_NS} <= set(names)
    assert marquez.get_namespace(JOB_NS)["name"] == JOB_NS
    with pytest.raises(APIError):
        marquez.get_namespace(f"{RUN_ID}nope")


def test_datasets(marquez: MarquezClient) -> None:
    listed = marquez.list_datasets(DS_NS)
    assert listed["totalCount"] == 2
    assert [d["name"] for d in listed["datasets"]] == [DST, SRC]
    src = marquez.get_dataset(DS_NS, SRC)
    assert src["id"] == {"namespace": DS_NS, "name": SRC}
    assert [(f["name"], f["type"]) for f in src["fields"]] == [("a", "INTEGER"), ("b", "INTEGER")]


def test_jobs_and_runs(marquez: MarquezClient) -> None:
    assert [j["name"] for j in marquez.list_jobs(JOB_NS)["jobs"]] == [JOB]
    job = marquez.get_job(JOB_NS, JOB)
    assert job["inputs"] == [{"namespace": DS_NS, "name": SRC}]
    assert job["outputs"] == [{"namespace": DS_NS, "name": DST}]
    assert job["latestRun"]["id"] == RUN
    runs = marquez.list_job_runs(JOB_NS, JOB)["runs"]
    assert [(r["id"], r["state"]) for r in runs] == [(RUN, "COMPLETED")]
    assert marquez.get_job_run(RUN)["state"] == "COMPLETED"


def test_column_lineage(marquez: MarquezClient) -> None:
    def edges(graph: dict) -> list:
        return sorted((n["id"], [e["destination"] for e in n["inEdges"]]) for n in graph["graph"])

    by_dataset = marquez.get_column_lineage_by_dataset(DS_NS, DST)
    assert edges(by_dataset) == [
        (f"datasetField:{DS_NS}:{DST}:x", [f"datasetField:{DS_NS}:{SRC}:a"]),
        (f"datasetField:{DS_NS}:{SRC}:a", []),
    ]
    assert marquez.get_column_lineage_by_dataset_field(DS_NS, DST, "x") == by_dataset
    assert marquez.get_column_lineage_by_job(JOB_NS, JOB) == by_dataset
    assert edges(marquez.get_column_lineage_by_dataset_field(DS_NS, SRC, "a", with_downstream=True)) == []


def test_tags_and_sources(marquez: MarquezClient) -> None:
    tagged = marquez.tag_dataset(DS_NS, SRC, f"{RUN_ID}_pii")
    assert tagged["tags"] == [f"{RUN_ID}_pii"]
    field = marquez.tag_dataset_field(DS_NS, SRC, "a", f"{RUN_ID}_col")
    assert field["fields"][0]["tags"] == [f"{RUN_ID}_col".upper()]
    assert f"{RUN_ID}_pii" in [t["name"] for t in marquez.list_tags(limit=100000)["tags"]]
    assert "default" in [s["name"] for s in marquez.list_sources(limit=100000)["sources"]]
    assert marquez.get_source("default")["connectionUrl"] == ""


def test_not_served_raise_api_errors(marquez: MarquezClient) -> None:
    # No dataset versions and no raw events are kept (docs/marquez-compatibility.md §Routes).
    with pytest.raises(APIError):
        marquez.list_dataset_versions(DS_NS, SRC)
    with pytest.raises(APIError):
        marquez.list_events()
