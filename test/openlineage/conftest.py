"""Fixtures for the OpenLineage producers suite (run by `npm run test:interop`, tools/interop.ts).

The launcher starts the whole stack on a throwaway Neo4j and passes it in through the environment:
INTEROP_GMS_URL (ingestion service), INTEROP_FRONT_DOOR_URL (gateway), INTEROP_TOKEN (from
`npm run token`) and INTEROP_WORK_DIR (scratch space). The tests emit with the real producers and
read back what the catalog made through its GraphQL and REST reads, as a user would.
"""
from __future__ import annotations

import random
import string
import sys
from pathlib import Path

import pytest

# The reads the Python suites share live in test/python/catalog_reads.py.
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "python"))


from catalog_reads import FRONT_DOOR_URL, GMS_URL, HEADERS, TOKEN, aspect, dataset_urn, field_urn, graphql, lineage, stack_env  # noqa: F401 (the tests import them from here)

WORK_DIR = stack_env("INTEROP_WORK_DIR") or "/tmp/openlineage-interop"
# One namespace per pytest session: the suite can run again against the same stack.
RUN_ID = "ol" + "".join(random.choices(string.ascii_lowercase, k=6))


@pytest.fixture(scope="session")
def run_id() -> str:
    return RUN_ID
