"""Shared by the producer suites (tools/producers.ts runs each with its own virtualenv).

The launcher starts the whole stack on a throwaway Neo4j and passes it in through the environment:
INTEROP_GMS_URL (ingestion service), INTEROP_FRONT_DOOR_URL (gateway), INTEROP_TOKEN (from
`npm run token`) and INTEROP_WORK_DIR (scratch space).

`EventTap` sits between a producer and the door: it forwards every request unchanged and keeps each
event with the door's answer, so a suite counts what the producer sent against what the catalog
stored, and an event the door refused shows up as a failed check with the event and its 4xx.
"""
from __future__ import annotations

import gzip
import http.client
import json
import os
import sys
import threading
import urllib.parse
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, Dict, List, Optional


sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "python"))
import catalog_reads  # noqa: E402 (test/python/catalog_reads.py: the reads the Python suites share)
from catalog_reads import FRONT_DOOR_URL, GMS_URL, HEADERS, TOKEN, aspect, dataset_urn, field_urn  # noqa: E402,F401

env = catalog_reads.stack_env
WORK_DIR = env("INTEROP_WORK_DIR") or "/tmp/producers-interop"
# Where a suite leaves what its producer sent and the door answered (test-artifacts/producers/).
ARTIFACTS = env("PRODUCERS_ARTIFACTS") or os.path.join(WORK_DIR, "artifacts")
# With a Spark JVM and Airflow beside the stack on two cores, a walk can run out of its deadline:
# it is asked again, up to twice, as a user would. Any other error fails.
_BUSY = {"timeout": 60, "deadline_retries": 2}


def graphql(query: str, variables: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
    return catalog_reads.graphql(query, variables, **_BUSY)


def lineage(urn: str, direction: str, types: Optional[List[str]] = None) -> List[str]:
    return catalog_reads.lineage(urn, direction, types, **_BUSY)


def urns_like(fragment: str, entity: str = "dataset") -> List[str]:
    """Every urn of a type whose text contains `fragment` (GraphQL search, all pages)."""
    out: List[str] = []
    start = 0
    while True:
        data = graphql(
            "query q($input: SearchInput!) { search(input: $input) { total searchResults { entity { urn } } } }",
            {"input": {"type": entity.upper(), "query": "*", "start": start, "count": 200}},
        )["search"]
        page = [r["entity"]["urn"] for r in data["searchResults"]]
        out += [u for u in page if fragment in u]
        start += len(page)
        if not page or start >= data["total"]:
            return sorted(set(out))


@dataclass
class Exchange:
    """One request a producer made through the tap, and the door's answer."""

    method: str
    path: str
    body: Any
    status: int
    answer: str

    def events(self) -> List[Dict[str, Any]]:
        if isinstance(self.body, list):
            return self.body
        return [self.body] if isinstance(self.body, dict) else []


@dataclass
class EventTap:
    """A forwarding proxy on a free loopback port that records every exchange with the door."""

    upstream: str
    exchanges: List[Exchange] = field(default_factory=list)
    # Guards the exchanges and the count of those being forwarded, which `stop` waits to settle: a
    # producer that stopped waiting for an answer (or exited) leaves its request on its way to the door.
    lock: threading.Condition = field(default_factory=threading.Condition)
    in_flight: int = 0
    server: Optional[ThreadingHTTPServer] = None

    @property
    def url(self) -> str:
        assert self.server is not None
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def start(self) -> "EventTap":
        tap = self
        target = urllib.parse.urlsplit(self.upstream)

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args: Any) -> None:  # quiet
                pass

            def _forward(self) -> None:
                with tap.lock:
                    tap.in_flight += 1
                try:
                    self._relay()
                finally:
                    with tap.lock:
                        tap.in_flight -= 1
                        tap.lock.notify_all()

            def _relay(self) -> None:
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "connection", "transfer-encoding")}
                conn = http.client.HTTPConnection(target.hostname, target.port, timeout=120)
                try:
                    conn.request(self.command, self.path, body=raw or None, headers=headers)
                    res = conn.getresponse()
                    answer = res.read()
                    status = res.status
                    out_headers = [(k, v) for k, v in res.getheaders() if k.lower() not in ("transfer-encoding", "connection", "content-length")]
                finally:
                    conn.close()
                text = raw
                if self.headers.get("Content-Encoding", "").lower() == "gzip" and raw:
                    text = gzip.decompress(raw)
                try:
                    body: Any = json.loads(text) if text else None
                except ValueError:
                    body = text.decode("utf8", "replace")
                with tap.lock:
                    tap.exchanges.append(Exchange(self.command, self.path, body, status, answer.decode("utf8", "replace")))
                self.send_response(status)
                for k, v in out_headers:
                    self.send_header(k, v)
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

            do_POST = do_PUT = do_GET = do_DELETE = _forward

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def dump(self, name: str) -> str:
        """Every exchange as a JSON line (request body and the door's answer), for a human to read."""
        os.makedirs(ARTIFACTS, exist_ok=True)
        path = os.path.join(ARTIFACTS, name)
        with self.lock, open(path, "w") as f:
            for x in self.exchanges:
                f.write(json.dumps({"method": x.method, "path": x.path, "status": x.status, "answer": x.answer[:2000], "body": x.body}) + "\n")
        return path

    def stop(self, bound_s: float = 300) -> None:
        with self.lock:
            self.lock.wait_for(lambda: self.in_flight == 0, timeout=bound_s)
        if self.server:
            self.server.shutdown()
            self.server.server_close()

    def refused(self) -> List[str]:
        """Every exchange the door did not accept: the producer's event and the door's answer."""
        with self.lock:
            return [
                f"{x.method} {x.path} → {x.status} {x.answer[:800]}\n  event: {json.dumps(x.body)[:3000]}"
                for x in self.exchanges if not 200 <= x.status < 300
            ]

    def accepted(self, path_part: str = "lineage") -> List[Dict[str, Any]]:
        with self.lock:
            return [e for x in self.exchanges if 200 <= x.status < 300 and path_part in x.path for e in x.events()]


def assert_none_refused(tap: EventTap) -> None:
    refused = tap.refused()
    assert not refused, "the door refused events the producer sent:\n" + "\n".join(refused)


def assert_runs_visible(events: List[Dict[str, Any]], job_urn_of) -> None:
    """Every accepted run event is in the graph: its run, with its job as the run's template."""
    missing = []
    for e in events:
        if "run" not in e:
            continue
        run = f"urn:li:dataProcessInstance:{e['run']['runId'].lower()}"
        rel = aspect(run, "dataProcessInstanceRelationships")
        expected = job_urn_of(e)
        if rel is None or rel.get("parentTemplate") != expected:
            missing.append(f"{e.get('eventType')} {e['job']['namespace']}/{e['job']['name']} run {e['run']['runId']}: "
                           f"relationships {rel} (expected template {expected})")
    assert not missing, "accepted events not in the graph:\n" + "\n".join(missing)
