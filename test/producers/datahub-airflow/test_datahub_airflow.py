"""Airflow 3 with DataHub's Airflow plugin (acryl-datahub-airflow-plugin) emitting over datahub-rest to
the ingestion service: the shop_sql DAG's lineage arrives through DataHub's own door, with the same
dataset urns (platform, name, env) as the OpenLineage provider's events give the same tables. One
difference is the plugin's: it writes a task's lineage when the task starts, so the failing task's
SQL shows as that task's lineage (docs/producers.md, The same tables through both doors)."""
from __future__ import annotations

import json
import random
import string
from pathlib import Path
from typing import Any, Dict, List

import pytest

from airflow_common import airflow_env, create_database, migrate, query, run
from producers_common import GMS_URL, TOKEN, WORK_DIR, EventTap, aspect, assert_none_refused, dataset_urn, field_urn, lineage

RUN_ID = "".join(random.choices(string.ascii_lowercase, k=6))
DATABASE = f"shop_dh_{RUN_ID}"
# The plugin's flow is (airflow, dag_id, cluster), and the cluster is also the env (origin) of every
# dataset it names, uppercased: it must be a DataHub FabricType. With any other cluster the door
# answers 422 ("origin … is not a FabricType"), as DataHub does. The default, prod, gives PROD.
CLUSTER = "prod"
FLOW = f"urn:li:dataFlow:(airflow,shop_sql,{CLUSTER})"
TASKS = ("seed", "ctas_shipped", "insert_totals", "load_archive")


def ds(table: str) -> str:
    # The same urn the OpenLineage provider's events give this table (test/producers/airflow).
    return dataset_urn("postgres", f"{DATABASE}.public.{table}")


def job(task: str) -> str:
    return f"urn:li:dataJob:({FLOW},{task})"


def proposals(tap: EventTap) -> List[Dict[str, Any]]:
    """Every metadata change proposal the plugin's emitter sent (single or batched), as sent."""
    out: List[Dict[str, Any]] = []
    for x in tap.exchanges:
        if not 200 <= x.status < 300 or not isinstance(x.body, dict):
            continue
        if "proposal" in x.body:
            out.append(x.body["proposal"])
        out += x.body.get("proposals", [])
    return out


def snapshot() -> Dict[str, Any]:
    out: Dict[str, Any] = {}
    for t in ("orders", "customers", "shipped", "customer_totals"):
        out[f"up {t}"] = lineage(ds(t), "UPSTREAM")
        out[f"down {t}"] = lineage(ds(t), "DOWNSTREAM")
    for task in TASKS:
        io = aspect(job(task), "dataJobInputOutput") or {}
        out[f"io {task}"] = (sorted(io.get("inputDatasets", [])), sorted(io.get("outputDatasets", [])),
                             sorted(json.dumps({"d": f.get("downstreams"), "u": sorted(f.get("upstreams", []))}) for f in io.get("fineGrainedLineages", [])))
    return out


@pytest.fixture(scope="module")
def plugin_run() -> Dict[str, Any]:
    work = Path(WORK_DIR) / "datahub-airflow"
    work.mkdir(parents=True, exist_ok=True)
    log = work / "airflow.log"
    db = create_database(DATABASE)
    tap = EventTap(GMS_URL).start()
    # The plugin emits a task's dataJobInputOutput one request before the key aspects that create
    # the tables it names (materialize_iolets): the door's strict existence rule would refuse it.
    # As for any connector that names entities before it writes them, the connection asks for
    # relaxed mode (its `extra` is the emitter's keyword arguments; relaxed needs a role in
    # LINEAGE_RELAXED_ROLES, Admin by default: the suite's token is the root user's).
    connection = {"conn_type": "datahub-rest", "host": tap.url, "password": TOKEN,
                  "extra": {"extra_headers": {"X-Lineage-Existence-Mode": "relaxed"}}}
    env = airflow_env(work / "home", db, {
        "AIRFLOW_CONN_DATAHUB_REST_DEFAULT": json.dumps(connection),
        "AIRFLOW__DATAHUB__ENABLED": "True",
        "AIRFLOW__DATAHUB__CAPTURE_EXECUTIONS": "True",
        # Tasks with a list of statements (seed, ctas_shipped, insert_totals): without it the plugin
        # parses only the first statement (a CREATE or DROP) and the task's inputs are lost.
        "AIRFLOW__DATAHUB__ENABLE_MULTI_STATEMENT_SQL_PARSING": "True",
        # The plugin runs its own extraction; the OpenLineage provider it brings must not emit too.
        "AIRFLOW__OPENLINEAGE__DISABLED": "True",
    })
    try:
        migrate(env, work, log)
        first = run(["dags", "test", "shop_sql", "2026-01-01T00:00:00+00:00"], env, work, log)
        after_first = snapshot()
        sent_first = len(proposals(tap))
        second = run(["dags", "test", "shop_sql", "2026-01-02T00:00:00+00:00"], env, work, log)
        after_second = snapshot()
        yield {"tap": tap, "db": db, "first": first, "second": second, "after_first": after_first, "after_second": after_second,
               "sent_first": sent_first, "log": log}
    finally:
        tap.stop()
        tap.dump("datahub-airflow-exchanges.jsonl")


def test_the_dag_ran(plugin_run):
    assert query(plugin_run["db"], "SELECT customer_id, customer_name FROM customer_totals ORDER BY 1") == [(1, "Ada Lovelace"), (2, "Alan Turing")]


def test_every_proposal_is_accepted_and_stored(plugin_run):
    tap: EventTap = plugin_run["tap"]
    assert_none_refused(tap)
    sent = proposals(tap)
    assert sent, "the plugin emitted nothing:\n" + plugin_run["log"].read_text()[-4000:]
    missing = [f"{p['entityUrn']} {p['aspectName']}" for p in sent if aspect(p["entityUrn"], p["aspectName"]) is None]
    assert not missing, "accepted proposals not in the graph:\n" + "\n".join(sorted(set(missing)))


def test_each_task_is_a_datajob_under_the_dags_flow(plugin_run):
    assert aspect(FLOW, "dataFlowInfo")["name"] == "shop_sql"
    for task in TASKS:
        assert aspect(job(task), "dataJobInfo") is not None, job(task)


def test_same_tables_same_urns_as_the_openlineage_door(plugin_run):
    # Platform postgres, name <database>.<schema>.<table>, env PROD: what the OpenLineage provider's
    # postgres://host:port namespace and database.schema.table name become at the other door.
    io = aspect(job("insert_totals"), "dataJobInputOutput")
    assert sorted(io["inputDatasets"]) == sorted([ds("shipped"), ds("customers")])
    assert io["outputDatasets"] == [ds("customer_totals")]
    ctas = aspect(job("ctas_shipped"), "dataJobInputOutput")
    assert (ctas["inputDatasets"], ctas["outputDatasets"]) == ([ds("orders")], [ds("shipped")])


def test_table_and_column_lineage(plugin_run):
    # insert_totals' tables, and load_archive's: the plugin wrote the failing task's SQL as its lineage.
    # At this door a task's tables meet through its dataJob (dataset → job → dataset: two hops; the
    # OpenLineage door also writes the output's upstreamLineage, one hop), and the plugin names each
    # task's upstream tasks (inputDatajobs): orders is three hops up, through ctas_shipped.
    up = {u: int(d) for d, u in (x.split(" ", 1) for x in lineage(ds("customer_totals"), "UPSTREAM", ["DATASET"]))}
    assert up == {ds("shipped"): 2, ds("customers"): 2, ds("orders_archive"): 2, ds("orders"): 3}, up
    assert aspect(job("insert_totals"), "dataJobInputOutput")["inputDatajobs"] == [job("ctas_shipped")]
    # Column lineage is the job's fineGrainedLineages: the column's upstream is its job and its table.
    assert sorted(x.split(" ", 1)[1] for x in lineage(field_urn(ds("customer_totals"), "customer_name"), "UPSTREAM")) == sorted(
        [job("insert_totals"), ds("customers")])
    fine = {f["downstreams"][0]: sorted(f["upstreams"]) for f in aspect(job("insert_totals"), "dataJobInputOutput")["fineGrainedLineages"]}
    assert fine[field_urn(ds("customer_totals"), "customer_name")] == sorted(
        [field_urn(ds("customers"), "first_name"), field_urn(ds("customers"), "last_name")])
    assert fine[field_urn(ds("customer_totals"), "total_gross")] == [field_urn(ds("shipped"), "gross")]


def test_the_failed_task_is_a_failed_run_and_a_rerun_changes_nothing(plugin_run):
    # capture_executions: each task instance is a dataProcessInstance of its dataJob; load_archive's
    # two runs (one per DAG run) ended in FAILURE.
    runs = {p["entityUrn"] for p in proposals(plugin_run["tap"]) if p["aspectName"] == "dataProcessInstanceRelationships"
            and json.loads(p["aspect"]["value"]).get("parentTemplate") == job("load_archive")}
    assert len(runs) == 2, runs
    for run in runs:
        state = aspect(run, "dataProcessInstanceRunEvent")
        assert state is not None and state["status"] == "COMPLETE" and state["result"]["type"] == "FAILURE", (run, state)
    # What the plugin says of the failing task is its SQL's tables, written at the task's start: the
    # door keeps what it was sent (a dataJobInputOutput is not a run's to take back).
    io = aspect(job("load_archive"), "dataJobInputOutput")
    assert (sorted(io["inputDatasets"]), io["outputDatasets"]) == (sorted([ds("orders_archive"), ds("customers")]), [ds("customer_totals")])
    assert plugin_run["after_second"] == plugin_run["after_first"]
