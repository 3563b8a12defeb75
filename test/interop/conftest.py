"""Fixtures for the acryl-datahub interop suite (run by `npm run test:interop`, tools/interop.ts).

The launcher starts the whole stack on a throwaway Neo4j and passes it in through the environment:
INTEROP_GMS_URL (ingestion service), INTEROP_FRONT_DOOR_URL (gateway; empty when it is not built),
INTEROP_TOKEN (from `npm run token`), INTEROP_NEO4J_URI. Every test that talks to the server runs
twice: against the ingestion service directly and through the front door's /api/gms prefix.
"""
from __future__ import annotations

import http.client
import os
import random
import re
import string
import threading
import urllib.parse
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Iterator, List, Tuple

import datahub
import pytest
from datahub.emitter.mce_builder import make_dataset_urn, make_schema_field_urn
from datahub.emitter.rest_emitter import DatahubRestEmitter
from datahub.ingestion.graph.client import DataHubGraph, DatahubClientConfig


def _env(name: str) -> str:
    value = os.environ.get(name, "")
    if not value and name in ("INTEROP_GMS_URL", "INTEROP_TOKEN"):
        pytest.exit(f"{name} is not set: run the suite with `npm run test:interop`", returncode=2)
    return value


GMS_URL = _env("INTEROP_GMS_URL").rstrip("/")
FRONT_DOOR_URL = _env("INTEROP_FRONT_DOOR_URL").rstrip("/")
TOKEN = _env("INTEROP_TOKEN")
NEO4J_URI = _env("INTEROP_NEO4J_URI")
MISSING_SERVICES = _env("INTEROP_MISSING_SERVICES")
CLIENT_VERSION: str = datahub.__version__
# One namespace per pytest session: the suite can run again against the same stack.
RUN_ID = re.sub(r"[^a-z0-9]", "", CLIENT_VERSION.lower()) + "_" + "".join(random.choices(string.ascii_lowercase, k=5))


def client_at_least(major: int, minor: int) -> bool:
    nums = [int(p) for p in re.findall(r"\d+", CLIENT_VERSION)[:2]]
    return tuple(nums) >= (major, minor)


@dataclass
class Target:
    """Where the client points: the ingestion service itself or the front door's /api/gms."""

    name: str
    gms_url: str
    ns: str

    def dataset(self, name: str) -> str:
        return make_dataset_urn("hive", f"{self.ns}.{name}", "PROD")

    def field(self, dataset_urn: str, path: str) -> str:
        return make_schema_field_urn(dataset_urn, path)


def _target(name: str) -> Target:
    if name == "direct":
        return Target(name, GMS_URL, f"interop_{RUN_ID}_direct")
    if not FRONT_DOOR_URL:
        pytest.fail(
            "the front door (gateway) is not running"
            + (f": not built yet ({MISSING_SERVICES})" if MISSING_SERVICES else "")
        )
    return Target(name, f"{FRONT_DOOR_URL}/api/gms", f"interop_{RUN_ID}_frontdoor")


@pytest.fixture(scope="module", params=["direct", "front_door"])
def target(request: pytest.FixtureRequest) -> Target:
    return _target(request.param)


@pytest.fixture(scope="module")
def emitter(target: Target) -> Iterator[DatahubRestEmitter]:
    e = DatahubRestEmitter(gms_server=target.gms_url, token=TOKEN)
    e.test_connection()
    yield e
    e.close()


@pytest.fixture(scope="module")
def graph(target: Target) -> Iterator[DataHubGraph]:
    g = DataHubGraph(DatahubClientConfig(server=target.gms_url, token=TOKEN))
    yield g
    g.close()


# --------------------------------------------------------------------------------------------
# A counting proxy: proves how many HTTP requests one client call made (retries included).


@dataclass
class CountingProxy:
    upstream: str
    requests: List[Tuple[str, str, int]] = field(default_factory=list)
    lock: threading.Lock = field(default_factory=threading.Lock)
    server: ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        assert self.server is not None
        return f"http://127.0.0.1:{self.server.server_address[1]}"

    def calls(self, method: str, path_prefix: str) -> List[Tuple[str, str, int]]:
        with self.lock:
            return [r for r in self.requests if r[0] == method and r[1].startswith(path_prefix)]

    def reset(self) -> None:
        with self.lock:
            self.requests.clear()


def _start_proxy(upstream: str) -> CountingProxy:
    proxy = CountingProxy(upstream)
    parsed = urllib.parse.urlsplit(upstream)

    class Handler(BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def _forward(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            body = self.rfile.read(length) if length else None
            conn = http.client.HTTPConnection(parsed.hostname, parsed.port, timeout=60)
            headers = {k: v for k, v in self.headers.items() if k.lower() not in ("host", "connection")}
            conn.request(self.command, self.path, body=body, headers=headers)
            resp = conn.getresponse()
            data = resp.read()
            with proxy.lock:
                proxy.requests.append((self.command, self.path, resp.status))
            self.send_response(resp.status)
            for k, v in resp.getheaders():
                if k.lower() not in ("transfer-encoding", "connection", "content-length"):
                    self.send_header(k, v)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)
            conn.close()

        do_GET = _forward
        do_POST = _forward

        def log_message(self, *args: object) -> None:  # keep pytest output clean
            pass

    proxy.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=proxy.server.serve_forever, daemon=True).start()
    return proxy


@pytest.fixture(scope="module")
def counting_proxy(target: Target) -> Iterator[Tuple[CountingProxy, str]]:
    """A proxy in front of the target; yields (proxy, gms_url through the proxy)."""
    parsed = urllib.parse.urlsplit(target.gms_url)
    proxy = _start_proxy(f"{parsed.scheme}://{parsed.netloc}")
    yield proxy, proxy.url + parsed.path
    assert proxy.server is not None
    proxy.server.shutdown()
