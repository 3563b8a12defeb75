"""Spark (pyspark, local mode) with the OpenLineage Spark listener, emitting over HTTP with an API
key to the door: tables in the session's spark_catalog warehouse become hive datasets named by the
listener's TABLE symlinks, their column lineage follows the same names, and no physical-path dataset
is left beside a table."""
from __future__ import annotations

import json
import os
import random
import shutil
import string
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, List

import pytest

from producers_common import (
    GMS_URL, TOKEN, WORK_DIR, EventTap, aspect, assert_none_refused, assert_runs_visible, dataset_urn, field_urn, lineage, urns_like,
)

JOB = Path(__file__).parent / "shop_job.py"
RUN_ID = "".join(random.choices(string.ascii_lowercase, k=6))
DATABASE = f"shop_{RUN_ID}"
NAMESPACE = f"spark-{RUN_ID}"
FLOW = f"urn:li:dataFlow:(spark,shop_job,{NAMESPACE})"


def ds(table: str) -> str:
    return dataset_urn("hive", f"{DATABASE}.{table}")


def symlink_table(d: Dict[str, Any]) -> str:
    ids = (d.get("facets") or {}).get("symlinks", {}).get("identifiers", [])
    tables = [i["name"] for i in ids if i.get("type", "").upper() == "TABLE"]
    return tables[-1] if tables else ""


@pytest.fixture(scope="module")
def spark_run() -> Dict[str, Any]:
    jar = os.environ.get("PRODUCERS_SPARK_JAR", "")
    assert jar and Path(jar).is_file(), f"PRODUCERS_SPARK_JAR ({jar!r}) is not the listener jar: run through `npm run test:producers`"
    work = Path(WORK_DIR) / "spark"
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    events_file = work / "events.jsonl"
    tap = EventTap(GMS_URL).start()
    try:
        env = {**os.environ, "PYSPARK_PYTHON": sys.executable, "SPARK_LOCAL_IP": "127.0.0.1"}
        ran = subprocess.run(
            [sys.executable, str(JOB), str(work / "warehouse"), DATABASE, jar, tap.url, TOKEN, NAMESPACE, str(events_file)],
            cwd=work, env=env, capture_output=True, text=True, timeout=600,
        )
        output = ran.stdout + ran.stderr
        (work / "spark.log").write_text(output)
        assert ran.returncode == 0, output[-6000:]
        written = [json.loads(line) for line in events_file.read_text().splitlines() if line.strip()] if events_file.exists() else []
        return {"tap": tap, "written": written, "warehouse": str(work / "warehouse"), "output": output}
    finally:
        tap.stop()
        tap.dump("spark-exchanges.jsonl")


def test_every_event_sent_is_accepted_and_counted(spark_run):
    tap: EventTap = spark_run["tap"]
    assert_none_refused(tap)
    sent = tap.accepted()
    # The listener's file transport saw exactly what its HTTP transport delivered: nothing dropped.
    assert len(spark_run["written"]) > 0, spark_run["output"][-3000:]
    assert sorted(e["run"]["runId"] + e.get("eventType", "") + e["eventTime"] for e in sent) == \
        sorted(e["run"]["runId"] + e.get("eventType", "") + e["eventTime"] for e in spark_run["written"])


def test_every_accepted_event_is_in_the_graph(spark_run):
    def job_urn(e: Dict[str, Any]) -> str:
        return f"urn:li:dataJob:({FLOW},{e['job']['name']})" if e["job"]["name"] != "shop_job" else f"urn:li:dataJob:({FLOW},shop_job)"
    assert_runs_visible(spark_run["tap"].accepted(), job_urn)


def test_tables_are_named_by_their_symlinks(spark_run):
    outputs = {symlink_table(d) for e in spark_run["tap"].accepted() for d in e.get("outputs", [])}
    # The listener names every table of the warehouse by a TABLE symlink: the premise of this suite.
    assert {f"{DATABASE}.shipped", f"{DATABASE}.customer_totals"} <= outputs, outputs
    assert lineage(ds("shipped"), "UPSTREAM", ["DATASET"]) == [f"1 {ds('orders')}"]
    assert lineage(ds("customer_totals"), "UPSTREAM", ["DATASET"]) == sorted(
        [f"1 {ds('shipped')}", f"1 {ds('customers')}", f"2 {ds('orders')}"])
    downstream = lineage(ds("orders"), "DOWNSTREAM", ["DATASET"])
    # Besides the tables: the CTAS's inner write, which the listener names by its path alone
    # (test_the_listener_names_a_ctas_write_by_its_path_too), and nothing else.
    bare = sorted({physical_urn(d) for e in spark_run["tap"].accepted() for d in e.get("outputs", []) if not symlink_table(d)})
    assert [x for x in downstream if ":hive," in x] == sorted([f"1 {ds('shipped')}", f"2 {ds('customer_totals')}"])
    assert [x.split(" ", 1)[1] for x in downstream if ":hive," not in x] == bare


def physical_urn(d: Dict[str, Any]) -> str:
    """The urn a dataset has by its own (namespace, name): the listener's namespace is `file` (no
    scheme, so the platform) and its name the table's path."""
    assert d["namespace"] == "file", d["namespace"]
    return dataset_urn("file", d["name"].rstrip("/"))


def test_no_physical_path_datasets_where_a_symlink_names_the_table(spark_run):
    # A table the listener names by a TABLE symlink is the hive dataset only: its warehouse path
    # (file:/…/warehouse/<db>.db/<table>) is no dataset of its own, neither from the table's own
    # datasets nor from the column inputs of a column lineage facet.
    named = {physical_urn(d) for e in spark_run["tap"].accepted() for d in e.get("inputs", []) + e.get("outputs", []) if symlink_table(d)}
    # Except where the listener itself names the same path without a symlink (see the next test).
    bare = {physical_urn(d) for e in spark_run["tap"].accepted() for d in e.get("inputs", []) + e.get("outputs", []) if not symlink_table(d)}
    stray = [u for u in urns_like(f"{DATABASE}.db") if u in named - bare]
    assert stray == [], stray


def test_the_listener_names_a_ctas_write_by_its_path_too(spark_run):
    # Spark runs a CTAS as CreateDataSourceTableAsSelectCommand around an InsertIntoHadoopFsRelationCommand;
    # listener 1.53 reports the inner one with the table's path and no symlink. That event's output is a
    # file dataset in the graph, beside the hive table: what the producer said, kept as said.
    bare_outputs = {d["name"] for e in spark_run["tap"].accepted() for d in e.get("outputs", []) if not symlink_table(d)}
    assert any(n.endswith(f"{DATABASE}.db/shipped") for n in bare_outputs), bare_outputs
    assert urns_like(f"{DATABASE}.db") == sorted(u for u in urns_like(f"{DATABASE}.db") if u.endswith("/shipped,PROD)"))


def test_jobs_sit_under_the_application_flow(spark_run):
    # The INSERT OVERWRITE's job: the one that writes customer_totals from inputs (CREATE TABLE names it with none).
    jobs = {e["job"]["name"] for e in spark_run["tap"].accepted()
            if e.get("inputs") and any(symlink_table(d) == f"{DATABASE}.customer_totals" for d in e.get("outputs", []))}
    assert len(jobs) == 1, jobs
    for name in jobs:
        urn = f"urn:li:dataJob:({FLOW},{name})"
        io = aspect(urn, "dataJobInputOutput")
        assert io is not None, urn
        assert [x["destinationUrn"] for x in io["outputDatasetEdges"]] == [ds("customer_totals")]
        assert sorted(x["destinationUrn"] for x in io["inputDatasetEdges"]) == sorted([ds("customers"), ds("shipped")])


def test_column_lineage_follows_the_symlinks(spark_run):
    # customer_name = concat(first_name, ' ', last_name); total_gross = sum(shipped.gross); gross = amount * 1.2
    assert lineage(field_urn(ds("customer_totals"), "customer_name"), "UPSTREAM") == [f"1 {ds('customers')}"]
    assert lineage(field_urn(ds("customer_totals"), "total_gross"), "UPSTREAM") == sorted([f"1 {ds('shipped')}", f"2 {ds('orders')}"])
    assert lineage(field_urn(ds("customers"), "email"), "DOWNSTREAM") == []
    fine = aspect(ds("customer_totals"), "upstreamLineage")["fineGrainedLineages"]
    by_down = {f["downstreams"][0]: sorted(f["upstreams"]) for f in fine}
    assert by_down[field_urn(ds("customer_totals"), "customer_name")] == sorted(
        [field_urn(ds("customers"), "first_name"), field_urn(ds("customers"), "last_name")])
    assert by_down[field_urn(ds("customer_totals"), "total_gross")] == [field_urn(ds("shipped"), "gross")]


def test_column_lineage_keeps_the_transformation(spark_run):
    # The listener says how each input field makes a column (DIRECT/IDENTITY, DIRECT/TRANSFORMATION,
    # DIRECT/AGGREGATION …); each fine-grained entry carries them as its transformOperation, written
    # as DataHub's OpenLineage converter writes them: TYPE:SUBTYPE, distinct, sorted, comma-joined.
    said: Dict[str, set] = {}
    for e in spark_run["tap"].accepted():
        for d in e.get("outputs", []):
            if symlink_table(d) != f"{DATABASE}.customer_totals":
                continue
            for column, f in ((d.get("facets") or {}).get("columnLineage") or {}).get("fields", {}).items():
                said.setdefault(column, set()).update(
                    f"{t['type']}:{t['subtype']}" if t.get("subtype") else t["type"] for i in f["inputFields"] for t in i.get("transformations", []))
    assert said.get("total_gross"), said
    fine = aspect(ds("customer_totals"), "upstreamLineage")["fineGrainedLineages"]
    ops = {f["downstreams"][0]: f.get("transformOperation") for f in fine}
    for column, kinds in said.items():
        assert ops.get(field_urn(ds("customer_totals"), column)) == ",".join(sorted(kinds, key=str.lower)), (column, fine)
    # The sum is an aggregation, the concatenation a transformation, the id an identity.
    assert "AGGREGATION" in ops[field_urn(ds("customer_totals"), "total_gross")]
    assert ops[field_urn(ds("customer_totals"), "customer_name")] == "DIRECT:TRANSFORMATION"
    assert ops[field_urn(ds("customer_totals"), "customer_id")] == "DIRECT:IDENTITY"
