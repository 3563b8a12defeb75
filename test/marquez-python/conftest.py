"""Fixtures for the marquez-python suite (run by `npm run test:interop`, tools/interop.ts).

The launcher starts the whole stack on a throwaway Neo4j and passes it in through the environment
(INTEROP_GMS_URL, INTEROP_FRONT_DOOR_URL, INTEROP_TOKEN). The suite writes a small graph through
the OpenLineage door with openlineage-python, then reads it back with Marquez's own client.
"""
from __future__ import annotations

import random
import string
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "python"))

from catalog_reads import FRONT_DOOR_URL, GMS_URL, TOKEN  # noqa: E402,F401 (the tests import them from here)

# One namespace per pytest session: the suite can run again against the same stack.
RUN_ID = "mq" + "".join(random.choices(string.ascii_lowercase, k=6))


@pytest.fixture(scope="session")
def run_id() -> str:
    return RUN_ID
