"""Reads of the running catalog that the Python suites share: the OpenLineage interop suite
(tools/interop.ts) and the producer suites (tools/producers.ts).

Their launcher starts the whole stack on a throwaway Neo4j and passes it in through the environment:
INTEROP_GMS_URL (ingestion service), INTEROP_FRONT_DOOR_URL (gateway), INTEROP_TOKEN (from
`npm run token`) and INTEROP_WORK_DIR (scratch space). The suites read back what the catalog made
through its GraphQL and REST reads, as a user would.
"""
from __future__ import annotations

import os
import urllib.parse
from typing import Any, Dict, List, Optional

import pytest
import requests


def stack_env(name: str) -> str:
    value = os.environ.get(name, "")
    if not value and name in ("INTEROP_GMS_URL", "INTEROP_TOKEN"):
        pytest.exit(f"{name} is not set: run the suite through its launcher (`npm run test:interop` or `npm run test:producers`)", returncode=2)
    return value


GMS_URL = stack_env("INTEROP_GMS_URL").rstrip("/")
FRONT_DOOR_URL = stack_env("INTEROP_FRONT_DOOR_URL").rstrip("/")
TOKEN = stack_env("INTEROP_TOKEN")
HEADERS = {"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"}


def dataset_urn(platform: str, name: str, env_: str = "PROD") -> str:
    return f"urn:li:dataset:(urn:li:dataPlatform:{platform},{name},{env_})"


def field_urn(dataset: str, column: str) -> str:
    return f"urn:li:schemaField:({dataset},{column})"


def graphql(query: str, variables: Optional[Dict[str, Any]] = None, *, timeout: int = 30, deadline_retries: int = 0) -> Dict[str, Any]:
    """The `data` of a GraphQL answer (through the front door when there is one); any error fails.

    `deadline_retries`: how many times a walk that ran out of its deadline (504 DEADLINE_EXCEEDED) is
    asked again, as a user would on a machine busy with a producer's JVM."""
    base = FRONT_DOOR_URL or GMS_URL
    for attempt in range(deadline_retries + 1):
        r = requests.post(f"{base}/api/graphql", json={"query": query, "variables": variables or {}}, headers=HEADERS, timeout=timeout)
        r.raise_for_status()
        body = r.json()
        codes = {(e.get("extensions") or {}).get("type") for e in body.get("errors", [])}
        if codes == {"DEADLINE_EXCEEDED"} and attempt < deadline_retries:
            continue
        assert "errors" not in body, body["errors"]
        return body["data"]
    raise AssertionError("unreachable")


def lineage(urn: str, direction: str, types: Optional[List[str]] = None, **graphql_options: Any) -> List[str]:
    """`<degree> <urn>` of every lineage result, sorted (scrollAcrossLineage, all pages)."""
    out: List[str] = []
    scroll_id = None
    while True:
        data = graphql(
            "query q($input: ScrollAcrossLineageInput!) { scrollAcrossLineage(input: $input) {"
            " nextScrollId searchResults { degree entity { urn } } } }",
            {"input": {"urn": urn, "direction": direction, "count": 100, "scrollId": scroll_id, **({"types": types} if types else {})}},
            **graphql_options,
        )["scrollAcrossLineage"]
        out += [f"{r['degree']} {r['entity']['urn']}" for r in data["searchResults"]]
        scroll_id = data["nextScrollId"]
        if not scroll_id:
            return sorted(out)


def aspect(urn: str, name: str) -> Optional[Dict[str, Any]]:
    """The latest value of one aspect (Rest.li GET /aspects), None when it has none."""
    r = requests.get(f"{GMS_URL}/aspects/{urllib.parse.quote(urn, safe='')}", params={"aspect": name, "version": 0}, headers=HEADERS, timeout=30)
    if r.status_code == 404:
        return None
    r.raise_for_status()
    return next(iter(r.json()["aspect"].values()))
