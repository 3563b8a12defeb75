"""Real DataHub connectors, end to end, with unchanged recipes (`datahub ingest`, the `datahub-rest`
sink in the CLI's default sink mode: batches): the `postgres` source against a real PostgreSQL
(tables and views, view lineage with columns), the `sql-queries` source on a query log over those
tables, and the `dbt` source on the repository's dbt project (`dbt build` + `dbt docs generate` on
DuckDB). Each in the catalog's default strict mode and in relaxed mode, chosen per run with the
header the sink sends through `extra_headers` (docs/wire-contract.md §Existence mode).

The launcher (tools/interop.ts) starts the PostgreSQL (tools/postgres.ts) and passes INTEROP_PG_*
and INTEROP_DBT (the dbt of the openlineage suite's venv, which pins dbt-duckdb). The connector
plugins are pinned with acryl-datahub 1.7.0.17 only.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Dict, List, Optional, Tuple

import pytest

from conftest import GMS_URL, RUN_ID, TOKEN

if os.environ.get("INTEROP_CLIENT_VERSION") != "1.7.0.17":
    pytest.skip("the connector plugins (dbt, postgres, sql-queries) are pinned with acryl-datahub 1.7.0.17 only", allow_module_level=True)

from datahub.ingestion.graph.client import DataHubGraph, DatahubClientConfig  # noqa: E402
from datahub.metadata.schema_classes import UpstreamLineageClass  # noqa: E402

BIN = Path(sys.executable).parent
DBT_PROJECT = Path(__file__).parent.parent / "openlineage" / "dbt_project"
HEADER = "X-Lineage-Existence-Mode"
MODES = ["strict", "relaxed"]


def _required(name: str) -> str:
    value = os.environ.get(name, "")
    if not value:
        pytest.fail(f"{name} is not set: run the suite with `npm run test:interop` (it starts PostgreSQL and finds dbt)")
    return value


WORK = Path(os.environ.get("INTEROP_WORK_DIR") or "/tmp") / f"connectors-{RUN_ID}"


def graph() -> DataHubGraph:
    return DataHubGraph(DatahubClientConfig(server=GMS_URL, token=TOKEN))


def sink(mode: str) -> Dict[str, object]:
    """The recipe's sink: DataHub's own `datahub-rest`, default sink mode; relaxed asked by header."""
    config: Dict[str, object] = {"server": GMS_URL, "token": TOKEN}
    if mode == "relaxed":
        config["extra_headers"] = {HEADER: "relaxed"}
    return {"type": "datahub-rest", "config": config}


def ingest(name: str, source: Dict[str, object], mode: str, sink_options: Optional[Dict[str, object]] = None) -> Tuple[int, str]:
    """`datahub ingest -c <recipe>` as a user runs it; returns the exit code and the output."""
    WORK.mkdir(parents=True, exist_ok=True)
    recipe = WORK / f"{name}-{mode}.yml"
    # JSON is YAML: the recipe is exactly what a user would write.
    recipe_sink = sink(mode)
    recipe_sink["config"].update(sink_options or {})  # type: ignore[union-attr]
    recipe.write_text(json.dumps({"run_id": f"{name}-{mode}-{RUN_ID}", "source": source, "sink": recipe_sink}, indent=2))
    done = subprocess.run([str(BIN / "datahub"), "ingest", "-c", str(recipe)], capture_output=True, text=True, timeout=600,
                          env={**os.environ, "DATAHUB_TELEMETRY_ENABLED": "false"})
    return done.returncode, done.stdout + done.stderr


def upstreams(urn: str) -> Tuple[List[str], List[Tuple[Tuple[str, ...], Tuple[str, ...]]]]:
    """(upstream datasets, column edges as (upstream fields, downstream fields)) of a dataset."""
    lineage = graph().get_aspect(urn, UpstreamLineageClass)
    assert lineage is not None, f"no upstreamLineage stored for {urn}"
    columns = [(tuple(sorted(f.upstreams or [])), tuple(sorted(f.downstreams or []))) for f in lineage.fineGrainedLineages or []]
    return sorted(u.dataset for u in lineage.upstreams), columns


def exists(urn: str) -> bool:
    return graph().exists(urn)


def ds(platform: str, name: str) -> str:
    return f"urn:li:dataset:(urn:li:dataPlatform:{platform},{name},PROD)"


def field(dataset: str, path: str) -> str:
    return f"urn:li:schemaField:({dataset},{path})"


def assert_succeeded(code: int, output: str) -> None:
    """Exit 0 and no sink failure (the dbt source warns about its own config: not a failure)."""
    assert code == 0 and re.search(r"Pipeline finished (successfully|with at least \d+ warnings?)", output), output[-4000:]
    assert "failed to write record" not in output, output[-4000:]


# ---------------------------------------------------------------------------------------------
# PostgreSQL: tables, views, view lineage with columns; then a query log over the same tables

SCHEMA_SQL = """
CREATE SCHEMA sales;
CREATE TABLE sales.customers (id integer PRIMARY KEY, first_name text, last_name text, country text);
CREATE TABLE sales.orders (order_id integer PRIMARY KEY, customer_id integer REFERENCES sales.customers(id),
                           amount numeric(10,2), status text);
CREATE TABLE sales.daily_revenue (day date, revenue numeric(12,2));
CREATE VIEW sales.shipped_orders AS
  SELECT o.order_id, o.customer_id, c.first_name || ' ' || c.last_name AS customer_name, o.amount
  FROM sales.orders o JOIN sales.customers c ON c.id = o.customer_id WHERE o.status = 'shipped';
CREATE VIEW sales.customer_totals AS
  SELECT customer_id, customer_name, sum(amount) AS total_amount FROM sales.shipped_orders GROUP BY customer_id, customer_name;
"""


@pytest.fixture(scope="module")
def pg_database() -> Dict[str, str]:
    """A database of this session's own in the launcher's PostgreSQL, with the schema above."""
    import psycopg2  # the postgres plugin's driver

    conn = {k: _required(f"INTEROP_PG_{k.upper()}") for k in ("host", "port", "user", "password", "database")}
    database = f"shop_{RUN_ID}"
    admin = psycopg2.connect(host=conn["host"], port=conn["port"], user=conn["user"], password=conn["password"], dbname=conn["database"])
    admin.autocommit = True
    with admin.cursor() as cur:
        cur.execute(f'CREATE DATABASE "{database}"')
    admin.close()
    db = psycopg2.connect(host=conn["host"], port=conn["port"], user=conn["user"], password=conn["password"], dbname=database)
    with db, db.cursor() as cur:
        cur.execute(SCHEMA_SQL)
    db.close()
    return {**conn, "database": database}


def pg_urn(instance: str, database: str, table: str) -> str:
    return ds("postgres", f"{instance}.{database}.sales.{table}")


@pytest.mark.parametrize("mode", MODES)
def test_postgres_source_tables_views_and_column_lineage(pg_database: Dict[str, str], mode: str) -> None:
    instance = f"pg_{mode}"  # one platform instance per mode: each run writes entities of its own
    code, output = ingest("postgres", {"type": "postgres", "config": {
        "host_port": f"{pg_database['host']}:{pg_database['port']}", "database": pg_database["database"],
        "username": pg_database["user"], "password": pg_database["password"],
        "platform_instance": instance, "schema_pattern": {"allow": ["sales"]},
    }}, mode)
    assert_succeeded(code, output)
    urn = lambda t: pg_urn(instance, pg_database["database"], t)  # noqa: E731
    for table in ("customers", "orders", "daily_revenue", "shipped_orders", "customer_totals"):
        assert exists(urn(table)), table
    tables, columns = upstreams(urn("shipped_orders"))
    assert tables == sorted([urn("orders"), urn("customers")])
    shipped = urn("shipped_orders")
    assert ((field(urn("customers"), "first_name"), field(urn("customers"), "last_name")), (field(shipped, "customer_name"),)) in columns
    assert ((field(urn("orders"), "amount"),), (field(shipped, "amount"),)) in columns
    tables, columns = upstreams(urn("customer_totals"))
    assert tables == [shipped]
    assert ((field(shipped, "amount"),), (field(urn("customer_totals"), "total_amount"),)) in columns


QUERY_LOG = [
    # Between tables the postgres source ingested.
    {"query": "INSERT INTO sales.daily_revenue SELECT current_date, sum(amount) FROM sales.shipped_orders",
     "timestamp": 1700000000, "user": "etl"},
    # Into a table the postgres source never saw: the sql-queries source writes its operation aspect.
    {"query": "INSERT INTO sales.revenue_archive SELECT day, revenue FROM sales.daily_revenue",
     "timestamp": 1700000100, "user": "etl"},
]


@pytest.mark.parametrize("mode", MODES)
def test_sql_queries_source_on_the_postgres_tables(pg_database: Dict[str, str], mode: str) -> None:
    instance = f"pg_{mode}"
    log = WORK / f"queries-{mode}.json"
    WORK.mkdir(parents=True, exist_ok=True)
    log.write_text("\n".join(json.dumps(q) for q in QUERY_LOG) + "\n")
    # The tables of the same platform instance come from the postgres test (it runs first).
    urn = lambda t: pg_urn(instance, pg_database["database"], t)  # noqa: E731
    assert exists(urn("shipped_orders")), "the postgres source test must run first"
    code, output = ingest("sql-queries", {"type": "sql-queries", "config": {
        "query_file": str(log), "platform": "postgres", "platform_instance": instance,
        "default_db": pg_database["database"], "default_schema": "sales",
    }}, mode)
    # In one batch the table written to exists by its own operation aspect, so strict accepts it too.
    assert_succeeded(code, output)
    tables, columns = upstreams(urn("daily_revenue"))
    assert tables == [urn("shipped_orders")]
    assert any(up == (field(urn("shipped_orders"), "amount"),) for up, _ in columns), columns
    lineage = graph().get_aspect(urn("daily_revenue"), UpstreamLineageClass)
    assert lineage is not None and (lineage.upstreams[0].query or "").startswith("urn:li:query:")
    tables, columns = upstreams(urn("revenue_archive"))
    assert tables == [urn("daily_revenue")]
    assert ((field(urn("daily_revenue"), "day"),), (field(urn("revenue_archive"), "day"),)) in columns, columns


# ---------------------------------------------------------------------------------------------
# dbt: the repository's project, built on DuckDB; the source names the warehouse tables (duckdb)
# as siblings of its models without ever ingesting them.


@pytest.fixture(scope="module")
def dbt_artifacts() -> Path:
    dbt = _required("INTEROP_DBT")
    work = WORK / "dbt"
    shutil.rmtree(work, ignore_errors=True)
    shutil.copytree(DBT_PROJECT, work)
    (work / "profiles.yml").write_text(
        f"shop:\n  target: dev\n  outputs:\n    dev:\n      type: duckdb\n      path: {work / 'shop.duckdb'}\n      threads: 1\n")
    env = {**os.environ, "DBT_SEND_ANONYMOUS_USAGE_STATS": "false"}
    args = ["--profiles-dir", str(work), "--project-dir", str(work)]
    for step in (["build"], ["docs", "generate"]):
        done = subprocess.run([dbt, *step, *args], cwd=work, env=env, capture_output=True, text=True, timeout=600)
        assert done.returncode == 0, done.stdout + done.stderr
    target = work / "target"
    assert (target / "manifest.json").exists() and (target / "catalog.json").exists()
    return target


def dbt_source(target: Path, mode: str) -> Dict[str, object]:
    return {"type": "dbt", "config": {
        "manifest_path": str(target / "manifest.json"), "catalog_path": str(target / "catalog.json"),
        "target_platform": "duckdb", "platform_instance": f"dbt_{mode}_{RUN_ID}",
        "target_platform_instance": f"duck_{mode}_{RUN_ID}",
    }}


@pytest.mark.parametrize("mode", MODES)
def test_dbt_source_model_and_warehouse_lineage(dbt_artifacts: Path, mode: str) -> None:
    # The sink sends the models' MCE snapshots one by one and their MCPs in batches, on up to 15
    # threads: a batch naming a model can reach the catalog before that model's snapshot. Strict
    # judges each request on its own, so the strict run keeps the sink's order (max_threads: 1).
    extra = {"max_threads": 1} if mode == "strict" else {}
    code, output = ingest("dbt", dbt_source(dbt_artifacts, mode), mode, extra)
    assert_succeeded(code, output)
    model = lambda t: ds("dbt", f"dbt_{mode}_{RUN_ID}.shop.main.{t}")  # noqa: E731
    duck = lambda t: ds("duckdb", f"duck_{mode}_{RUN_ID}.shop.main.{t}")  # noqa: E731
    # A model's upstreams are the warehouse tables of the nodes it reads (with column lineage) …
    tables, _ = upstreams(model("stg_orders"))
    assert tables == sorted([duck("raw_orders"), duck("raw_customers")])
    tables, columns = upstreams(model("customer_totals"))
    assert tables == [duck("stg_orders")]
    assert columns and all(f.startswith(f"urn:li:schemaField:({duck('stg_orders')},") for up, _ in columns for f in up), columns
    # … and each warehouse table's upstream is its model; the sink writes the tables' status too.
    for table in ("customer_totals", "stg_orders", "raw_orders", "raw_customers"):
        tables, _ = upstreams(duck(table))
        assert tables == [model(table)]
        assert exists(duck(table)) and exists(model(table))
