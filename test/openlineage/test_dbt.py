"""A real `dbt-ol run` (openlineage-dbt) of our small dbt project on DuckDB (dbt-duckdb), emitting to
the catalog over HTTP with an API key: the model-to-model and column lineage its events carry must
be the catalog's, at the right degrees, and its runs recorded as complete."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import GMS_URL, RUN_ID, TOKEN, WORK_DIR, aspect, dataset_urn, field_urn, lineage

PROJECT = Path(__file__).parent / "dbt_project"
BIN = Path(sys.executable).parent
# The DuckDB file's stem is the database name, so each session's datasets are its own.
DATABASE = f"shop_{RUN_ID}"
NAMESPACE = f"dbt-{RUN_ID}"


def ds(table: str) -> str:
    return dataset_urn("duckdb", f"{DATABASE}.main.{table}")


def job(model: str) -> str:
    return f"urn:li:dataJob:(urn:li:dataFlow:(dbt,dbt-run-shop,{NAMESPACE}),{DATABASE}.main.shop.{model})"


@pytest.fixture(scope="module")
def dbt_run() -> dict:
    work = Path(WORK_DIR) / "dbt"
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(PROJECT, work)
    (work / "profiles.yml").write_text(
        f"shop:\n  target: dev\n  outputs:\n    dev:\n      type: duckdb\n      path: {work / (DATABASE + '.duckdb')}\n      threads: 1\n")
    env = {
        **os.environ, "PATH": f"{BIN}:{os.environ.get('PATH', '')}", "DBT_SEND_ANONYMOUS_USAGE_STATS": "false",
        "OPENLINEAGE_URL": GMS_URL, "OPENLINEAGE_API_KEY": TOKEN, "OPENLINEAGE_NAMESPACE": NAMESPACE,
    }
    args = ["--profiles-dir", str(work), "--project-dir", str(work)]
    seeded = subprocess.run([str(BIN / "dbt"), "seed", *args], cwd=work, env=env, capture_output=True, text=True, timeout=300)
    assert seeded.returncode == 0, seeded.stdout + seeded.stderr
    started = time.monotonic()
    ran = subprocess.run([str(BIN / "dbt-ol"), "run", *args], cwd=work, env=env, capture_output=True, text=True, timeout=300)
    output = ran.stdout + ran.stderr
    assert ran.returncode == 0, output
    assert "Emitted 6 OpenLineage events" in output, output
    return {"seconds": time.monotonic() - started, "output": output}


def test_models_and_their_sources_are_lineage(dbt_run):
    # stg_orders joins the two seeds (named only in its column lineage); customer_totals reads it.
    assert lineage(ds("stg_orders"), "UPSTREAM") == sorted([f"1 {ds('raw_orders')}", f"1 {ds('raw_customers')}", f"1 {job('stg_orders')}"])
    downstream = lineage(ds("raw_orders"), "DOWNSTREAM")
    assert f"1 {ds('stg_orders')}" in downstream
    assert f"2 {job('customer_totals')}" in downstream
    assert f"2 {ds('customer_totals')}" in downstream


def test_column_lineage_reaches_the_aggregate(dbt_run):
    # total_amount ← stg_orders.amount ← raw_orders.amount; customer_name ← first_name, last_name.
    assert lineage(field_urn(ds("customer_totals"), "total_amount"), "UPSTREAM") == sorted([f"1 {ds('stg_orders')}", f"2 {ds('raw_orders')}"])
    assert lineage(field_urn(ds("raw_customers"), "last_name"), "DOWNSTREAM") == sorted([f"1 {ds('stg_orders')}", f"2 {ds('customer_totals')}"])
    assert lineage(field_urn(ds("raw_customers"), "email"), "DOWNSTREAM") == []


def test_jobs_flows_and_runs(dbt_run):
    info = aspect(job("stg_orders"), "dataJobInfo")
    assert info["type"] == "MODEL"
    assert aspect(ds("stg_orders"), "datasetProperties")["description"] == "Shipped orders joined to customers"
    io = aspect(job("customer_totals"), "dataJobInputOutput")
    assert [e["destinationUrn"] for e in io["inputDatasetEdges"]] == [ds("stg_orders")]
    assert [e["destinationUrn"] for e in io["outputDatasetEdges"]] == [ds("customer_totals")]
    state = aspect(job("stg_orders"), "openLineage")
    assert "dbt_node" in state["facets"]
