"""Airflow 3 with apache-airflow-providers-openlineage: `airflow dags test` of the shop_sql DAG on a
real PostgreSQL, the provider's HTTP transport pointed at the OpenLineage door with an API key.
Every task is a dataJob under the DAG's dataFlow; the provider's SQL parsing gives table and column
lineage; the failing task's run is recorded as failed and changes no lineage; a re-run changes nothing."""
from __future__ import annotations

import json
import random
import string
from pathlib import Path
from typing import Any, Dict, List

import pytest

from airflow_common import airflow_env, create_database, migrate, query, run
from producers_common import (
    GMS_URL, TOKEN, WORK_DIR, EventTap, aspect, assert_none_refused, assert_runs_visible, dataset_urn, field_urn, lineage,
)

RUN_ID = "".join(random.choices(string.ascii_lowercase, k=6))
DATABASE = f"shop_ol_{RUN_ID}"
NAMESPACE = f"airflow-{RUN_ID}"
FLOW = f"urn:li:dataFlow:(airflow,shop_sql,{NAMESPACE})"
TASKS = ("seed", "ctas_shipped", "insert_totals", "load_archive")


def ds(table: str) -> str:
    # postgres://host:port + <database>.<schema>.<table> (OpenLineage's naming) → DataHub's postgres urn.
    return dataset_urn("postgres", f"{DATABASE}.public.{table}")


def job(task: str) -> str:
    return f"urn:li:dataJob:({FLOW},shop_sql.{task})"


def snapshot() -> Dict[str, Any]:
    """What a user sees of the DAG's lineage: table and column lineage, each job's inputs and outputs."""
    out: Dict[str, Any] = {}
    for t in ("orders", "customers", "shipped", "customer_totals"):
        out[f"up {t}"] = lineage(ds(t), "UPSTREAM")
        out[f"down {t}"] = lineage(ds(t), "DOWNSTREAM")
        ul = aspect(ds(t), "upstreamLineage") or {}
        out[f"fine {t}"] = sorted(json.dumps({"d": f["downstreams"], "u": sorted(f["upstreams"])}) for f in ul.get("fineGrainedLineages", []))
    for task in TASKS:
        io = aspect(job(task), "dataJobInputOutput") or {}
        out[f"io {task}"] = (sorted(e["destinationUrn"] for e in io.get("inputDatasetEdges", [])), sorted(e["destinationUrn"] for e in io.get("outputDatasetEdges", [])))
    return out


def dag_test(env, work, log, date: str) -> Dict[str, Any]:
    done = run(["dags", "test", "shop_sql", date], env, work, log)
    return {"exit": done.returncode, "output": done.stdout + done.stderr}


@pytest.fixture(scope="module")
def airflow() -> Dict[str, Any]:
    work = Path(WORK_DIR) / "airflow"
    work.mkdir(parents=True, exist_ok=True)
    log = work / "airflow.log"
    db = create_database(DATABASE)
    tap = EventTap(GMS_URL).start()
    # timeout: the client's read timeout (default 5 s); execution_timeout: how long the provider lets its
    # emitting process live (default 10 s) before it kills it and the event is lost. On two shared
    # cores the door's answer can take longer than 5 s.
    transport = {"type": "http", "url": tap.url, "endpoint": "api/v1/lineage", "timeout": 60, "auth": {"type": "api_key", "apiKey": TOKEN}}
    env = airflow_env(work / "home", db, {
        "AIRFLOW__OPENLINEAGE__TRANSPORT": json.dumps(transport),
        "AIRFLOW__OPENLINEAGE__NAMESPACE": NAMESPACE,
        "AIRFLOW__OPENLINEAGE__EXECUTION_TIMEOUT": "120",
    })
    try:
        migrate(env, work, log)
        first = dag_test(env, work, log, "2026-01-01T00:00:00+00:00")
        after_first = snapshot()
        sent_first = len({(e["run"]["runId"], e["eventType"], e["eventTime"]) for e in tap.accepted()})
        second = dag_test(env, work, log, "2026-01-02T00:00:00+00:00")
        after_second = snapshot()
        yield {"tap": tap, "db": db, "first": first, "second": second, "after_first": after_first, "after_second": after_second,
               "sent_first": sent_first, "log": log}
    finally:
        tap.stop()
        tap.dump("airflow-exchanges.jsonl")


def test_the_dag_ran_and_load_archive_failed(airflow):
    # PostgreSQL holds what the SQL made: the DAG did run, and a failing task failed in PostgreSQL.
    assert query(airflow["db"], "SELECT customer_id, customer_name, total_gross FROM customer_totals ORDER BY 1") == [
        (1, "Ada Lovelace", pytest.approx(24)), (2, "Alan Turing", pytest.approx(9))]
    assert "orders_archive" in airflow["first"]["output"], airflow["first"]["output"][-3000:]


def test_every_event_is_accepted_and_in_the_graph(airflow):
    tap: EventTap = airflow["tap"]
    assert_none_refused(tap)
    events = tap.accepted()
    # A START and an end for every task of both runs: nothing lost on the way. (The client retries
    # a request whose answer was slow, so one event may arrive twice: count distinct events.)
    task_events = {(e["run"]["runId"], e["eventType"], e["eventTime"]) for e in events if e["job"]["name"].startswith("shop_sql.")}
    assert len(task_events) == 2 * 2 * len(TASKS), sorted(task_events)

    def job_urn(e: Dict[str, Any]) -> str:
        return job(e["job"]["name"].split(".", 1)[1]) if e["job"]["name"].startswith("shop_sql.") else f"urn:li:dataJob:({FLOW},shop_sql)"
    assert_runs_visible(events, job_urn)


def test_each_task_is_a_datajob_under_the_dags_flow(airflow):
    assert aspect(FLOW, "dataFlowInfo")["name"] == "shop_sql"
    for task in TASKS:
        info = aspect(job(task), "dataJobInfo")
        assert info is not None, job(task)
        assert info["customProperties"]["openlineage.name"] == f"shop_sql.{task}"


def test_table_lineage_from_sql_parsing(airflow):
    assert lineage(ds("shipped"), "UPSTREAM", ["DATASET"]) == [f"1 {ds('orders')}"]
    assert lineage(ds("customer_totals"), "UPSTREAM", ["DATASET"]) == sorted([f"1 {ds('shipped')}", f"1 {ds('customers')}", f"2 {ds('orders')}"])
    io = aspect(job("insert_totals"), "dataJobInputOutput")
    assert sorted(e["destinationUrn"] for e in io["inputDatasetEdges"]) == sorted([ds("shipped"), ds("customers")])
    assert [e["destinationUrn"] for e in io["outputDatasetEdges"]] == [ds("customer_totals")]


def test_column_lineage_from_sql_parsing(airflow):
    assert lineage(field_urn(ds("customer_totals"), "customer_name"), "UPSTREAM") == [f"1 {ds('customers')}"]
    assert lineage(field_urn(ds("customer_totals"), "total_gross"), "UPSTREAM") == sorted([f"1 {ds('shipped')}", f"2 {ds('orders')}"])
    assert lineage(field_urn(ds("customers"), "email"), "DOWNSTREAM") == []
    fine = aspect(ds("customer_totals"), "upstreamLineage")["fineGrainedLineages"]
    by_down = {f["downstreams"][0]: sorted(f["upstreams"]) for f in fine}
    assert by_down[field_urn(ds("customer_totals"), "customer_name")] == sorted(
        [field_urn(ds("customers"), "first_name"), field_urn(ds("customers"), "last_name")])


def test_the_failed_task_is_a_failed_run_and_changes_no_lineage(airflow):
    events = airflow["tap"].accepted()
    failed = list({e["run"]["runId"]: e for e in events if e["job"]["name"] == "shop_sql.load_archive" and e["eventType"] == "FAIL"}.values())
    assert len(failed) == 2, [(e["job"]["name"], e["eventType"]) for e in events]
    for e in failed:
        run_urn = f"urn:li:dataProcessInstance:{e['run']['runId'].lower()}"
        state = aspect(run_urn, "dataProcessInstanceRunEvent")
        assert state is not None and state["status"] == "COMPLETE" and state["result"]["type"] == "FAILURE", state
    # orders_archive is named only by the failing SQL: no lineage reaches it, nor from it.
    archive = ds("orders_archive")
    assert lineage(archive, "DOWNSTREAM") == []
    assert archive not in json.dumps(airflow["after_second"])
    assert airflow["after_second"]["io load_archive"] == ([], [])


def test_a_rerun_changes_nothing(airflow):
    distinct = {(e["run"]["runId"], e["eventType"], e["eventTime"]) for e in airflow["tap"].accepted()}
    assert len(distinct) == 2 * airflow["sent_first"]
    assert airflow["after_second"] == airflow["after_first"]
