"""openlineage-python's HTTP transport against the catalog: api_key auth, gzip, Marquez's default
endpoint on the ingestion service and through the front door, DataHub's endpoint, RunEvents with
schema and column-lineage facets, JobEvents and DatasetEvents; and the batch route, which the client
does not have, posted with the client's own serialisation."""
from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

import pytest
import requests
from openlineage.client import OpenLineageClient
from openlineage.client.event_v2 import DatasetEvent, InputDataset, Job, JobEvent, OutputDataset, Run, RunEvent, RunState, StaticDataset
from openlineage.client.facet_v2 import column_lineage_dataset, documentation_dataset, job_type_job, parent_run, schema_dataset
from openlineage.client.serde import Serde
from openlineage.client.transport.http import ApiKeyTokenProvider, HttpCompression, HttpConfig, HttpTransport
from openlineage.client.uuid import generate_new_uuid

from conftest import FRONT_DOOR_URL, GMS_URL, HEADERS, RUN_ID, TOKEN, aspect, dataset_urn, field_urn, lineage

PRODUCER = "https://github.com/OpenLineage/OpenLineage/tree/1.54.0/integration/airflow"
PG = f"postgres://{RUN_ID}.example.com:5432"
T0 = datetime(2026, 11, 1, 10, 0, tzinfo=timezone.utc)


def pg(name: str) -> str:
    return dataset_urn("postgres", f"{RUN_ID}.{name}")


def client(base: str, endpoint: str = "api/v1/lineage", gzip: bool = False) -> OpenLineageClient:
    # urljoin keeps the base's path only with a trailing slash (DataHub's docs say the same).
    return OpenLineageClient(transport=HttpTransport(HttpConfig(
        url=base + "/", endpoint=endpoint, timeout=30.0, auth=ApiKeyTokenProvider({"api_key": TOKEN}),
        compression=HttpCompression.GZIP if gzip else None)))


def schema(*names: str) -> schema_dataset.SchemaDatasetFacet:
    return schema_dataset.SchemaDatasetFacet(fields=[schema_dataset.SchemaDatasetFacetFields(name=n, type="INTEGER") for n in names])


def columns(mapping: dict) -> column_lineage_dataset.ColumnLineageDatasetFacet:
    return column_lineage_dataset.ColumnLineageDatasetFacet(fields={
        out: column_lineage_dataset.Fields(inputFields=[
            column_lineage_dataset.InputField(namespace=PG, name=f"{RUN_ID}.{table}", field=col,
                                              transformations=[column_lineage_dataset.Transformation(type="DIRECT", subtype="IDENTITY")])
            for table, col in ins])
        for out, ins in mapping.items()})


def run_event(state: RunState, dag: str, task: str, inputs: list, outputs: list, run_id: str, at: datetime) -> RunEvent:
    parent = str(generate_new_uuid())
    return RunEvent(
        eventType=state, eventTime=at.isoformat(), producer=PRODUCER,
        run=Run(runId=run_id, facets={"parent": parent_run.ParentRunFacet(
            run=parent_run.Run(runId=parent), job=parent_run.Job(namespace=RUN_ID, name=dag))}),
        job=Job(namespace=RUN_ID, name=f"{dag}.{task}", facets={
            "jobType": job_type_job.JobTypeJobFacet(processingType="BATCH", integration="AIRFLOW", jobType="TASK")}),
        inputs=inputs, outputs=outputs)


def job_urn(dag: str, task: str) -> str:
    return f"urn:li:dataJob:(urn:li:dataFlow:(airflow,{dag},{RUN_ID}),{dag}.{task})"


def test_run_events_with_schema_and_column_lineage_through_every_endpoint():
    run_id = str(generate_new_uuid())
    ins = [InputDataset(namespace=PG, name=f"{RUN_ID}.orders", facets={"schema": schema("id", "amount")})]
    outs = [OutputDataset(namespace=PG, name=f"{RUN_ID}.totals", facets={
        "schema": schema("order_id", "total"),
        "columnLineage": columns({"order_id": [("orders", "id")], "total": [("orders", "amount")]}),
        "documentation": documentation_dataset.DocumentationDatasetFacet(description="totals per order")})]
    # START through the front door (Marquez's endpoint), COMPLETE gzipped to the ingestion service.
    if FRONT_DOOR_URL:
        client(FRONT_DOOR_URL).emit(run_event(RunState.START, "daily", "totals", ins, outs, run_id, T0))
    client(GMS_URL, gzip=True).emit(run_event(RunState.COMPLETE, "daily", "totals", ins, outs, run_id, T0 + timedelta(minutes=5)))

    job = job_urn("daily", "totals")
    assert lineage(pg("orders"), "DOWNSTREAM") == sorted([f"1 {job}", f"1 {pg('totals')}"])
    assert lineage(pg("totals"), "UPSTREAM") == sorted([f"1 {job}", f"1 {pg('orders')}"])
    # Column level: totals.total comes from orders.amount only.
    assert lineage(field_urn(pg("totals"), "total"), "UPSTREAM") == [f"1 {pg('orders')}"]
    fine = aspect(pg("totals"), "upstreamLineage")["fineGrainedLineages"]
    assert {(f["downstreams"][0], tuple(f["upstreams"])) for f in fine} == {
        (field_urn(pg("totals"), "order_id"), (field_urn(pg("orders"), "id"),)),
        (field_urn(pg("totals"), "total"), (field_urn(pg("orders"), "amount"),)),
    }
    assert [f["fieldPath"] for f in aspect(pg("totals"), "schemaMetadata")["fields"]] == ["order_id", "total"]
    assert aspect(pg("totals"), "datasetProperties")["description"] == "totals per order"
    run = aspect(f"urn:li:dataProcessInstance:{run_id}", "dataProcessInstanceRunEvent")
    assert run["status"] == "COMPLETE" and run["result"]["type"] == "SUCCESS"


def test_datahubs_endpoint_job_and_dataset_events():
    datahub = client(GMS_URL + "/openapi/openlineage", endpoint="api/v1/lineage")
    datahub.emit(JobEvent(eventTime=T0.isoformat(), producer=PRODUCER,
                          job=Job(namespace=RUN_ID, name="design.build", facets={}),
                          inputs=[InputDataset(namespace=PG, name=f"{RUN_ID}.src")], outputs=[OutputDataset(namespace=PG, name=f"{RUN_ID}.dst")]))
    job = f"urn:li:dataJob:(urn:li:dataFlow:(airflow,design,{RUN_ID}),design.build)"
    assert lineage(pg("src"), "DOWNSTREAM") == sorted([f"1 {job}", f"2 {pg('dst')}"])
    datahub.emit(DatasetEvent(eventTime=T0.isoformat(), producer=PRODUCER, dataset=StaticDataset(
        namespace=PG, name=f"{RUN_ID}.described", facets={"schema": schema("a", "b")})))
    assert [f["fieldPath"] for f in aspect(pg("described"), "schemaMetadata")["fields"]] == ["a", "b"]


def test_batch_route_keeps_good_events_and_names_bad_ones():
    good = [run_event(RunState.COMPLETE, "batch", f"t{i}", [InputDataset(namespace=PG, name=f"{RUN_ID}.b{i}")],
                      [OutputDataset(namespace=PG, name=f"{RUN_ID}.b{i + 1}")], str(generate_new_uuid()), T0) for i in range(3)]
    events = [json.loads(Serde.to_json(e)) for e in good]
    events.insert(1, {**events[0], "eventTime": "yesterday"})
    r = requests.post(f"{GMS_URL}/api/v1/lineage/batch", json=events, headers=HEADERS, timeout=30)
    assert r.status_code == 200, r.text
    body = r.json()
    assert body["status"] == "partial_success"
    assert body["summary"] == {"received": 4, "successful": 3, "failed": 1, "retriable": 0, "non_retriable": 1}
    assert [f["index"] for f in body["failed_events"]] == [1]
    assert "eventTime" in body["failed_events"][0]["reason"]
    # b0 → t0 → b1 → t1 → b2 → t2 → b3
    assert lineage(pg("b0"), "DOWNSTREAM")[-1] == f"6 {pg('b3')}"


def test_a_bad_token_is_refused_and_nothing_is_written():
    bad = OpenLineageClient(transport=HttpTransport(HttpConfig(url=GMS_URL + "/", auth=ApiKeyTokenProvider({"api_key": "not-a-token"}))))
    event = run_event(RunState.COMPLETE, "auth", "t", [], [OutputDataset(namespace=PG, name=f"{RUN_ID}.never")], str(generate_new_uuid()), T0)
    with pytest.raises(requests.HTTPError) as raised:
        bad.emit(event)
    assert raised.value.response.status_code == 401
    assert aspect(pg("never"), "datasetKey") is None
