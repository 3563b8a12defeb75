"""The DAG both Airflow suites run (`airflow dags test shop_sql`): SQL tasks on the suite's
PostgreSQL through the postgres provider's connection `shop_pg` (AIRFLOW_CONN_SHOP_PG).

seed → ctas_shipped → insert_totals → load_archive, which fails in PostgreSQL (its source table
does not exist). The SQL is idempotent so that a second run leaves the same tables."""
from __future__ import annotations

import datetime

from airflow.providers.common.sql.operators.sql import SQLExecuteQueryOperator
from airflow.sdk import DAG

with DAG(
    dag_id="shop_sql",
    schedule=None,
    start_date=datetime.datetime(2026, 1, 1, tzinfo=datetime.timezone.utc),
    catchup=False,
    description="orders and customers into shipped orders and per-customer totals",
) as dag:
    seed = SQLExecuteQueryOperator(
        task_id="seed",
        conn_id="shop_pg",
        sql=[
            "CREATE TABLE IF NOT EXISTS customers (id INT PRIMARY KEY, first_name TEXT, last_name TEXT, email TEXT)",
            "CREATE TABLE IF NOT EXISTS orders (id INT PRIMARY KEY, customer_id INT, amount NUMERIC, status TEXT)",
            "INSERT INTO customers VALUES (1, 'Ada', 'Lovelace', 'ada@example.com'), (2, 'Alan', 'Turing', 'alan@example.com') ON CONFLICT DO NOTHING",
            "INSERT INTO orders VALUES (10, 1, 20, 'shipped'), (11, 1, 5, 'returned'), (12, 2, 7.5, 'shipped') ON CONFLICT DO NOTHING",
        ],
    )
    ctas_shipped = SQLExecuteQueryOperator(
        task_id="ctas_shipped",
        conn_id="shop_pg",
        sql=[
            "DROP TABLE IF EXISTS shipped",
            "CREATE TABLE shipped AS SELECT o.id AS order_id, o.customer_id, o.amount * 1.2 AS gross FROM orders o WHERE o.status = 'shipped'",
        ],
    )
    insert_totals = SQLExecuteQueryOperator(
        task_id="insert_totals",
        conn_id="shop_pg",
        sql=[
            "CREATE TABLE IF NOT EXISTS customer_totals (customer_id INT, customer_name TEXT, total_gross NUMERIC)",
            "DELETE FROM customer_totals",
            # Aliased as the target's columns: openlineage-sql names an INSERT's column lineage by the
            # SELECT's output names (`_0`, `_1` for bare expressions), not by the INSERT's column list.
            "INSERT INTO customer_totals (customer_id, customer_name, total_gross) "
            "SELECT c.id AS customer_id, c.first_name || ' ' || c.last_name AS customer_name, SUM(s.gross) AS total_gross "
            "FROM shipped s JOIN customers c ON s.customer_id = c.id GROUP BY c.id, c.first_name, c.last_name",
        ],
    )
    # Fails in PostgreSQL: orders_archive does not exist.
    load_archive = SQLExecuteQueryOperator(
        task_id="load_archive",
        conn_id="shop_pg",
        sql="INSERT INTO customer_totals (customer_id, customer_name, total_gross) "
        "SELECT a.customer_id, c.email, a.amount FROM orders_archive a JOIN customers c ON a.customer_id = c.id",
        retries=0,
    )
    seed >> ctas_shipped >> insert_totals >> load_archive
