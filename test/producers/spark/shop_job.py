"""The Spark job the suite observes: local tables in the session's spark_catalog warehouse, a CTAS,
an INSERT OVERWRITE of a join with column expressions. Run as
`python shop_job.py <warehouse> <database> <listener jar> <transport url> <api key> <namespace> <events file>`.

The listener's transport is a composite of HTTP (to the door, with the API key) and a file (one JSON
event a line): the file is the producer's own count of what it emitted."""
import sys

from pyspark.sql import SparkSession

warehouse, database, jar, url, api_key, namespace, events_file = sys.argv[1:8]

spark = (
    SparkSession.builder.master("local[1]")
    .appName("shop_job")
    .config("spark.jars", jar)
    .config("spark.sql.warehouse.dir", warehouse)
    .config("spark.ui.enabled", "false")
    .config("spark.sql.shuffle.partitions", "1")
    .config("spark.extraListeners", "io.openlineage.spark.agent.OpenLineageSparkListener")
    .config("spark.openlineage.namespace", namespace)
    .config("spark.openlineage.transport.type", "composite")
    .config("spark.openlineage.transport.continueOnFailure", "true")
    .config("spark.openlineage.transport.transports.door.type", "http")
    .config("spark.openlineage.transport.transports.door.url", url)
    .config("spark.openlineage.transport.transports.door.endpoint", "/api/v1/lineage")
    # The listener gives up on an answer after 5 s by default; beside the stack on two cores a write
    # can take longer, and an abandoned request is an event the file has but the door's count lacks.
    .config("spark.openlineage.transport.transports.door.timeoutInMillis", "120000")
    .config("spark.openlineage.transport.transports.door.auth.type", "api_key")
    .config("spark.openlineage.transport.transports.door.auth.apiKey", api_key)
    .config("spark.openlineage.transport.transports.copy.type", "file")
    .config("spark.openlineage.transport.transports.copy.location", events_file)
    .getOrCreate()
)

spark.sql(f"CREATE DATABASE IF NOT EXISTS {database}")
spark.sql(f"USE {database}")
spark.sql("CREATE TABLE customers (id INT, first_name STRING, last_name STRING, email STRING) USING parquet")
spark.sql("INSERT INTO customers VALUES (1, 'Ada', 'Lovelace', 'ada@example.com'), (2, 'Alan', 'Turing', 'alan@example.com')")
spark.sql("CREATE TABLE orders (id INT, customer_id INT, amount DOUBLE, status STRING) USING parquet")
spark.sql("INSERT INTO orders VALUES (10, 1, 20.0, 'shipped'), (11, 1, 5.0, 'returned'), (12, 2, 7.5, 'shipped')")
# CTAS with a column expression.
spark.sql("CREATE TABLE shipped USING parquet AS SELECT id AS order_id, customer_id, amount * 1.2 AS gross FROM orders WHERE status = 'shipped'")
spark.sql("CREATE TABLE customer_totals (customer_id INT, customer_name STRING, total_gross DOUBLE) USING parquet")
# INSERT OVERWRITE of a join, with a concatenation and an aggregate.
spark.sql(
    "INSERT OVERWRITE TABLE customer_totals "
    "SELECT c.id, concat(c.first_name, ' ', c.last_name), sum(s.gross) "
    "FROM shipped s JOIN customers c ON s.customer_id = c.id GROUP BY c.id, c.first_name, c.last_name"
)
print(spark.sql("SELECT * FROM customer_totals ORDER BY customer_id").collect())
spark.stop()
