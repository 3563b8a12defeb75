"""What both Airflow suites share: a PostgreSQL database of their own on the launcher's server
(PRODUCERS_PG_*), an AIRFLOW_HOME with SQLite metadata and the DAG in test/producers/dags, and
`airflow dags test` (no scheduler) run as a user runs it."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Dict

import psycopg2

DAGS = Path(__file__).resolve().parent / "dags"
BIN = Path(sys.executable).parent


def pg() -> Dict[str, str]:
    keys = ("HOST", "PORT", "USER", "PASSWORD", "DATABASE")
    values = {k.lower(): os.environ.get(f"PRODUCERS_PG_{k}", "") for k in keys}
    missing = [k for k in keys if not values[k.lower()]]
    assert not missing, f"PRODUCERS_PG_{missing} not set: run the suite through `npm run test:producers`"
    return values


def create_database(name: str) -> Dict[str, str]:
    """A database of this suite's own, so that two suites sharing the server never share tables."""
    p = pg()
    conn = psycopg2.connect(host=p["host"], port=int(p["port"]), user=p["user"], password=p["password"], dbname=p["database"])
    conn.autocommit = True
    with conn.cursor() as cur:
        cur.execute(f'DROP DATABASE IF EXISTS "{name}"')
        cur.execute(f'CREATE DATABASE "{name}"')
    conn.close()
    return {**p, "database": name}


def query(db: Dict[str, str], sql: str) -> list:
    conn = psycopg2.connect(host=db["host"], port=int(db["port"]), user=db["user"], password=db["password"], dbname=db["database"])
    try:
        with conn.cursor() as cur:
            cur.execute(sql)
            return cur.fetchall()
    finally:
        conn.close()


def airflow_env(home: Path, db: Dict[str, str], extra: Dict[str, str]) -> Dict[str, str]:
    dags = home / "dags"
    if not dags.exists():
        shutil.copytree(DAGS, dags)
    return {
        **os.environ,
        "PATH": f"{BIN}:{os.environ.get('PATH', '')}",
        "AIRFLOW_HOME": str(home),
        "AIRFLOW__CORE__DAGS_FOLDER": str(dags),
        "AIRFLOW__CORE__LOAD_EXAMPLES": "False",
        "AIRFLOW__CORE__UNIT_TEST_MODE": "False",
        "AIRFLOW__DATABASE__SQL_ALCHEMY_CONN": f"sqlite:///{home / 'airflow.db'}",
        "AIRFLOW_CONN_SHOP_PG": f"postgresql://{db['user']}:{db['password']}@{db['host']}:{db['port']}/{db['database']}",
        **extra,
    }


def run(args: list, env: Dict[str, str], cwd: Path, log: Path, timeout: int = 900) -> subprocess.CompletedProcess:
    done = subprocess.run([str(BIN / "airflow"), *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)
    with log.open("a") as f:
        f.write(f"$ airflow {' '.join(args)}  → exit {done.returncode}\n{done.stdout}\n{done.stderr}\n")
    return done


def migrate(env: Dict[str, str], cwd: Path, log: Path) -> None:
    done = run(["db", "migrate"], env, cwd, log)
    assert done.returncode == 0, (done.stdout + done.stderr)[-4000:]


def task_states(env: Dict[str, str], cwd: Path, log: Path, run_id: str) -> Dict[str, str]:
    done = run(["tasks", "states-for-dag-run", "shop_sql", run_id, "-o", "plain"], env, cwd, log)
    assert done.returncode == 0, (done.stdout + done.stderr)[-4000:]
    states: Dict[str, str] = {}
    for line in done.stdout.splitlines():
        parts = line.split()
        for task in ("seed", "ctas_shipped", "insert_totals", "load_archive"):
            if task in parts:
                states[task] = next((p for p in parts if p in ("success", "failed", "upstream_failed", "skipped", "running", "queued")), "?")
    return states
