"""Fixtures for the OpenLineage producers suite (run by `npm run test:interop`, tools/interop.ts).

The launcher starts the whole stack on a throwaway Neo4j and passes it in through the environment:
INTEROP_GMS_URL (ingestion service), INTEROP_FRONT_DOOR_URL (gateway), INTEROP_TOKEN (from
`npm run token`) and INTEROP_WORK_DIR (scratch space). The tests emit with the real producers and
read back what the catalog made through its GraphQL and REST reads, as a user would.
"""
from __future__ import annotations

import os
import random
import string
import urllib.parse
from typing import Any, Dict, List, Optional

import pytest
import requests


def _env(name: str) -> str:
    value = os.environ.get(name, "")
    if not value and name in ("INTEROP_GMS_URL", "INTEROP_TOKEN"):
        pytest.exit(f"{name} is not set: run the suite with `npm run test:interop -- --version openlineage`", returncode=2)
    return value


GMS_URL = _env("INTEROP_GMS_URL").rstrip("/")
FRONT_DOOR_URL = _env("INTEROP_FRONT_DOOR_URL").rstrip("/")
TOKEN = _env("INTEROP_TOKEN")
WORK_DIR = _env("INTEROP_WORK_DIR") or "/tmp/openlineage-interop"
# One namespace per pytest session: the suite can run again against the same stack.
RUN_ID = "ol" + "".join(random.choices(string.ascii_lowercase, k=6))

HEADERS = {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"}


def dataset_urn(platform: str, name: str) -> str:
    return f"urn:li:dataset:(urn:li:dataPlatform:{platform},{name},PROD)"


def field_urn(dataset: str, field: str) -> str:
    return f"urn:li:schemaField:({dataset},{field})"


def graphql(query: str, variables: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
    base = FRONT_DOOR_URL or GMS_URL
    r = requests.post(f"{base}/api/graphql", json={"query": query, "variables": variables or {}}, headers=HEADERS, timeout=30)
    r.raise_for_status()
    body = r.json()
    assert "errors" not in body, body["errors"]
    return body["data"]


def lineage(urn: str, direction: str, types: Optional[List[str]] = None) -> List[str]:
    """`<degree> <urn>` of every lineage result, sorted (scrollAcrossLineage, all pages)."""
    out: List[str] = []
    scroll_id = None
    while True:
        data = graphql(
            "query q($input: ScrollAcrossLineageInput!) { scrollAcrossLineage(input: $input) {"
            " nextScrollId searchResults { degree entity { urn } } } }",
            {"input": {"urn": urn, "direction": direction, "count": 100, "scrollId": scroll_id, **({"types": types} if types else {})}},
        )["scrollAcrossLineage"]
        out += [f"{r['degree']} {r['entity']['urn']}" for r in data["searchResults"]]
        scroll_id = data["nextScrollId"]
        if not scroll_id:
            return sorted(out)


def aspect(urn: str, name: str) -> Optional[Dict[str, Any]]:
    r = requests.get(f"{GMS_URL}/aspects/{urllib.parse.quote(urn, safe='')}", params={"aspect": name, "version": 0}, headers=HEADERS, timeout=30)
    if r.status_code == 404:
        return None
    r.raise_for_status()
    return next(iter(r.json()["aspect"].values()))


@pytest.fixture(scope="session")
def run_id() -> str:
    return RUN_ID
