"""DataHub's own `datahub search` CLI (acryl-datahub 1.7) against the catalog (issue 51).

The SDK writes a small graph of its own — datasets on two platforms with tags, glossary terms,
owners, a domain and subtypes, a soft-deleted dataset, a job and a chart — and the real `datahub`
entry point of the suite's venv runs as a subprocess (DATAHUB_GMS_URL / DATAHUB_GMS_TOKEN, a HOME
of its own so no ~/.datahubenv is read). Every answer is compared with that graph: plain queries,
--filter / --filters / --where, facets, --projection, the table and urn formats, and paging by
--offset. Filters run against the ingestion service; the GraphQL documents (the bundled one,
projections, facets, pages) also through the front door.
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any, Dict, List, Set

import pytest

from conftest import TOKEN, Target, client_at_least

if not client_at_least(1, 7):
    pytest.skip("the `datahub search` command arrived in acryl-datahub 1.7", allow_module_level=True)

from datahub.emitter.mcp import MetadataChangeProposalWrapper
from datahub.ingestion.graph.client import DataHubGraph
from datahub.metadata.schema_classes import (
    AuditStampClass,
    ChangeAuditStampsClass,
    ChartInfoClass,
    DataFlowInfoClass,
    DataJobInfoClass,
    DataJobInputOutputClass,
    DatasetPropertiesClass,
    DomainPropertiesClass,
    DomainsClass,
    GlobalTagsClass,
    GlossaryTermAssociationClass,
    GlossaryTermsClass,
    OwnerClass,
    OwnershipClass,
    OwnershipTypeClass,
    StatusClass,
    SubTypesClass,
    TagAssociationClass,
)

DATAHUB = str(Path(sys.executable).with_name("datahub"))
# Every CLI run costs seconds of Python start-up: what the filters mean is checked against the
# ingestion service only; the front door gets the GraphQL documents (bundled, projected, facets, pages).
direct_only = pytest.mark.parametrize("target", ["direct"], indirect=True)


class Seeded:
    """The graph one target's tests search, and the names to search it by."""

    def __init__(self, target: Target) -> None:
        tail = target.ns.replace("_", "")[-14:]
        self.ns = target.ns
        self.p1 = f"clia{tail}"
        self.p2 = f"clib{tail}"
        self.pii = f"urn:li:tag:{target.ns}_pii"
        self.revenue = f"urn:li:glossaryTerm:{target.ns}.Revenue"
        self.alice = f"urn:li:corpuser:{target.ns}_alice"
        self.bob = f"urn:li:corpuser:{target.ns}_bob"
        self.sales = f"urn:li:domain:{target.ns}_sales"
        self.orders = self.dataset(self.p1, "shop.orders")
        self.customers = self.dataset(self.p1, "shop.customers")
        self.refunds = self.dataset(self.p1, "shop.refunds")
        self.events = self.dataset(self.p2, "lake.events", "DEV")
        self.clicks = self.dataset(self.p2, "lake.clicks")
        self.sessions = self.dataset(self.p2, "lake.sessions")
        self.retired = self.dataset(self.p2, "lake.retired_orders")
        self.flow = f"urn:li:dataFlow:({self.p1},{target.ns}_nightly,PROD)"
        self.job = f"urn:li:dataJob:({self.flow},load_orders)"
        self.chart = f"urn:li:chart:({self.p2},{target.ns}_weekly_orders)"

    def dataset(self, platform: str, name: str, env: str = "PROD") -> str:
        return f"urn:li:dataset:(urn:li:dataPlatform:{platform},{self.ns}.{name},{env})"

    @property
    def datasets(self) -> Set[str]:
        """The live datasets (the soft-deleted one left out, as every search leaves it out)."""
        return {self.orders, self.customers, self.refunds, self.events, self.clicks, self.sessions}

    @property
    def listed(self) -> Set[str]:
        """What a search naming no type finds: the catalog's lineage-capable types, so not the flow
        (docs/wire-contract.md §Catalogue search)."""
        return self.datasets | {self.job, self.chart}


def _owners(*urns: str) -> OwnershipClass:
    return OwnershipClass(owners=[OwnerClass(owner=u, type=OwnershipTypeClass.TECHNICAL_OWNER) for u in urns])


@pytest.fixture(scope="module")
def seeded(target: Target, graph: DataHubGraph) -> Seeded:
    s = Seeded(target)
    stamp = AuditStampClass(time=0, actor="urn:li:corpuser:datahub")
    aspects: List[Any] = [
        (s.sales, DomainPropertiesClass(name=f"Sales {s.ns}")),
        (s.orders, DatasetPropertiesClass(name="orders", description="Orders placed in the web shop")),
        (s.orders, SubTypesClass(typeNames=["Table"])),
        (s.orders, GlobalTagsClass(tags=[TagAssociationClass(tag=s.pii)])),
        (s.orders, GlossaryTermsClass(terms=[GlossaryTermAssociationClass(urn=s.revenue)], auditStamp=stamp)),
        (s.orders, _owners(s.alice)),
        (s.orders, DomainsClass(domains=[s.sales])),
        (s.customers, DatasetPropertiesClass(name="customers", description="Everyone who ever bought something")),
        (s.customers, SubTypesClass(typeNames=["View"])),
        (s.customers, GlobalTagsClass(tags=[TagAssociationClass(tag=s.pii)])),
        (s.customers, _owners(s.bob)),
        (s.customers, DomainsClass(domains=[s.sales])),
        (s.refunds, DatasetPropertiesClass(name="refunds")),
        (s.refunds, SubTypesClass(typeNames=["Table"])),
        (s.refunds, _owners(s.alice, s.bob)),
        (s.events, DatasetPropertiesClass(name="events", description="Raw click stream")),
        (s.events, GlossaryTermsClass(terms=[GlossaryTermAssociationClass(urn=s.revenue)], auditStamp=stamp)),
        (s.clicks, DatasetPropertiesClass(name="clicks")),
        (s.sessions, DatasetPropertiesClass(name="sessions")),
        (s.retired, DatasetPropertiesClass(name="retired_orders")),
        (s.retired, StatusClass(removed=True)),
        (s.flow, DataFlowInfoClass(name="nightly")),
        (s.job, DataJobInfoClass(name="load_orders", type="COMMAND")),
        (s.job, DataJobInputOutputClass(inputDatasets=[s.events], outputDatasets=[s.orders])),
        (s.job, _owners(s.alice)),
        (s.chart, ChartInfoClass(title="Weekly orders", description="Orders per week", lastModified=ChangeAuditStampsClass(),
                                 inputs=[s.orders])),
        (s.chart, GlobalTagsClass(tags=[TagAssociationClass(tag=s.pii)])),
    ]
    for urn, aspect in aspects:
        graph.emit_mcp(MetadataChangeProposalWrapper(entityUrn=urn, aspect=aspect))
    return s


@pytest.fixture(scope="module")
def cli_env(target: Target, tmp_path_factory: pytest.TempPathFactory) -> Dict[str, str]:
    home = tmp_path_factory.mktemp("datahub-home")
    env = {k: v for k, v in os.environ.items() if not k.startswith("DATAHUB_")}
    env.update(HOME=str(home), DATAHUB_GMS_URL=target.gms_url, DATAHUB_GMS_TOKEN=TOKEN, DATAHUB_TELEMETRY_ENABLED="false",
               DATAHUB_SKIP_UPGRADE_CHECK="true")
    return env


def _run(env: Dict[str, str], *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([DATAHUB, "search", *args], env=env, capture_output=True, text=True, timeout=120)


def search(env: Dict[str, str], *args: str) -> Dict[str, Any]:
    """`datahub search … --format json`, parsed; fails with the CLI's own error text."""
    done = _run(env, *args)
    assert done.returncode == 0, f"datahub search {' '.join(args)} exited {done.returncode}: {done.stderr[-2000:]}"
    return json.loads(done.stdout)


def urns(env: Dict[str, str], *args: str) -> Set[str]:
    """`datahub search … --urns-only`, as a set (one urn a line)."""
    done = _run(env, *args, "--urns-only", "--limit", "50")
    assert done.returncode == 0, f"datahub search {' '.join(args)} exited {done.returncode}: {done.stderr[-2000:]}"
    return {line for line in done.stdout.splitlines() if line.strip()}


def mine(s: Seeded) -> str:
    """A --where clause keeping this target's two platforms only."""
    return f"platform IN ({s.p1}, {s.p2})"


def test_plain_query_default_selection(seeded: Seeded, cli_env: Dict[str, str]) -> None:
    """The bundled search document (every entity type's fragment) answers, names and platforms rendered."""
    out = search(cli_env, "orders", "--filter", f"platform={seeded.p1},{seeded.p2}")
    found = {r["entity"]["urn"]: r["entity"] for r in out["searchResults"]}
    assert set(found) == {seeded.orders, seeded.job, seeded.chart}
    assert out["total"] == 3 and out["count"] == 3 and out["start"] == 0
    orders = found[seeded.orders]
    assert orders["type"] == "DATASET"
    assert orders["properties"]["name"] == "orders"
    assert orders["properties"]["description"] == "Orders placed in the web shop"
    assert orders["platform"]["name"] == seeded.p1
    assert found[seeded.chart]["type"] == "CHART"
    assert found[seeded.chart]["properties"]["name"] == "Weekly orders"
    assert found[seeded.job]["type"] == "DATA_JOB"
    # Everything, no filter: the bundled document over whatever the catalog holds, other tests' too.
    everything = search(cli_env, "*", "--limit", "50")
    assert everything["total"] >= len(seeded.listed)
    # A type named by the filter is searched even when a search naming none leaves it out.
    flows = search(cli_env, "nightly", "--filter", "entity_type=dataFlow", "--filter", f"platform={seeded.p1}")
    assert [(r["entity"]["urn"], r["entity"]["type"], r["entity"]["properties"]["name"]) for r in flows["searchResults"]] == [
        (seeded.flow, "DATA_FLOW", "nightly")]


@direct_only
def test_plain_query_words(seeded: Seeded, cli_env: Dict[str, str]) -> None:
    assert urns(cli_env, "customers", "--where", mine(seeded)) == {seeded.customers}
    assert urns(cli_env, "click stream", "--where", mine(seeded)) == {seeded.events}
    # A soft-deleted dataset is found only when the status filter asks for it.
    assert urns(cli_env, "retired", "--where", mine(seeded)) == set()
    assert urns(cli_env, "retired", "--where", f"{mine(seeded)} AND status = ONLY_SOFT_DELETED") == {seeded.retired}
    # status = ALL sends no criterion on `removed`, and DataHub then leaves soft-deleted entities out.
    assert seeded.retired not in urns(cli_env, "*", "--where", f"{mine(seeded)} AND status = ALL")


@direct_only
def test_simple_filters(seeded: Seeded, cli_env: Dict[str, str]) -> None:
    s = seeded
    assert urns(cli_env, "*", "--filter", f"platform={s.p1}", "--filter", "entity_type=dataset") == {s.orders, s.customers, s.refunds}
    assert urns(cli_env, "*", "--filter", f"platform={s.p1},{s.p2}", "--filter", "entity_type=chart,dataJob") == {s.chart, s.job}
    assert urns(cli_env, "*", "--filter", f"tag={s.pii}") == {s.orders, s.customers, s.chart}
    assert urns(cli_env, "*", "--filter", f"glossary_term={s.revenue}") == {s.orders, s.events}
    assert urns(cli_env, "*", "--filter", f"owner={s.alice}") == {s.orders, s.refunds, s.job}
    assert urns(cli_env, "*", "--filter", f"domain={s.sales}") == {s.orders, s.customers}
    assert urns(cli_env, "*", "--filter", f"platform={s.p2}", "--filter", "env=DEV") == {s.events}
    assert urns(cli_env, "*", "--filter", f"platform={s.p1}", "--filter", "entity_subtype=View") == {s.customers}


@direct_only
def test_json_filters(seeded: Seeded, cli_env: Dict[str, str]) -> None:
    s = seeded
    either = {"and": [{"platform": [s.p1, s.p2]}, {"or": [{"tag": [s.pii]}, {"glossary_term": [s.revenue]}]}]}
    assert urns(cli_env, "*", "--filters", json.dumps(either)) == {s.orders, s.customers, s.events, s.chart}
    not_p1 = {"and": [{"platform": [s.p1, s.p2]}, {"entity_type": ["dataset"]}, {"not": {"platform": [s.p1]}}]}
    assert urns(cli_env, "*", "--filters", json.dumps(not_p1)) == {s.events, s.clicks, s.sessions}
    custom = {"and": [{"platform": [s.p1]}, {"field": "name", "condition": "START_WITH", "values": ["cust"]}]}
    assert urns(cli_env, "*", "--filters", json.dumps(custom)) == {s.customers}


@direct_only
def test_where(seeded: Seeded, cli_env: Dict[str, str]) -> None:
    s = seeded
    assert urns(cli_env, "*", "--where", f"platform = {s.p1} AND entity_type = dataset") == {s.orders, s.customers, s.refunds}
    assert urns(cli_env, "*", "--where", f"{mine(s)} AND entity_type = dataset AND NOT env = DEV") == s.datasets - {s.events}
    assert urns(cli_env, "*", "--where", f"{mine(s)} AND (tag = '{s.pii}' OR glossary_term = '{s.revenue}')") == {
        s.orders, s.customers, s.events, s.chart}
    assert urns(cli_env, "*", "--where", f"{mine(s)} AND entity_type = dataset AND owner IS NULL") == {s.events, s.clicks, s.sessions}
    assert urns(cli_env, "*", "--where", f"{mine(s)} AND glossary_term IS NOT NULL") == {s.orders, s.events}
    assert urns(cli_env, "*", "--where", f"{mine(s)} AND domain = '{s.sales}' AND subtype = Table") == {s.orders}
    assert urns(cli_env, "*", "--where", f"owner IN ('{s.alice}', '{s.bob}') AND NOT entity_type = dataJob") == {
        s.orders, s.customers, s.refunds}
    assert urns(cli_env, "*", "--where", f"{mine(s)} AND entity_type IN (chart, dataJob) AND tag IS NULL") == {s.job}


def _facets(out: Dict[str, Any]) -> Dict[str, Dict[str, int]]:
    return {f["field"]: {a["value"]: a["count"] for a in f["aggregations"]} for f in out["facets"]}


def test_facets_only(seeded: Seeded, cli_env: Dict[str, str]) -> None:
    s = seeded
    out = search(cli_env, "*", "--where", mine(s), "--facets-only", "--format", "json")
    assert set(out) == {"facets"}
    facets = _facets(out)
    assert facets["_entityType"] == {"DATASET": 6, "DATA_JOB": 1, "CHART": 1}
    assert facets["platform"] == {f"urn:li:dataPlatform:{s.p1}": 4, f"urn:li:dataPlatform:{s.p2}": 4}
    assert facets["origin"] == {"PROD": 5, "DEV": 1}
    assert facets["tags"] == {s.pii: 3}
    assert facets["glossaryTerms"] == {s.revenue: 2}
    assert facets["owners"] == {s.alice: 3, s.bob: 2}
    assert facets["domains"] == {s.sales: 2}
    assert facets["typeNames"] == {"Table": 2, "View": 1}
    # Urn-valued facets carry their entity, as DataHub's do.
    entities = {a["value"]: a["entity"] for f in out["facets"] for a in f["aggregations"] if a["entity"]}
    assert entities[s.sales]["type"] == "DOMAIN" and entities[s.sales]["properties"]["name"] == f"Sales {s.ns}"
    assert entities[s.pii]["type"] == "TAG" and entities[s.alice]["type"] == "CORP_USER"
    assert entities[f"urn:li:dataPlatform:{s.p1}"]["type"] == "DATA_PLATFORM"
    # The table rendering of the same facets.
    done = _run(cli_env, "*", "--where", f"{mine(s)} AND entity_type = dataset", "--facets-only", "--format", "table")
    assert done.returncode == 0, done.stderr
    assert "Platform (platform):" in done.stdout and f"urn:li:dataPlatform:{s.p1}" in done.stdout
    assert "Tag (tags):" in done.stdout and s.pii in done.stdout


def test_projection(seeded: Seeded, cli_env: Dict[str, str]) -> None:
    s = seeded
    projection = "urn type ... on Dataset { properties { name description } platform { ...PlatformFields } } ... on Chart { properties { name } }"
    out = search(cli_env, "orders", "--where", mine(s), "--projection", projection)
    entities = {r["entity"]["urn"]: r["entity"] for r in out["searchResults"]}
    assert set(entities) == {s.orders, s.job, s.chart}
    assert entities[s.orders] == {
        "urn": s.orders,
        "type": "DATASET",
        "properties": {"name": "orders", "description": "Orders placed in the web shop"},
        "platform": {"urn": f"urn:li:dataPlatform:{s.p1}", "name": s.p1, "properties": entities[s.orders]["platform"]["properties"]},
    }
    assert entities[s.chart] == {"urn": s.chart, "type": "CHART", "properties": {"name": "Weekly orders"}}
    assert entities[s.job] == {"urn": s.job, "type": "DATA_JOB"}
    # From a file, with outer braces.
    path = Path(cli_env["HOME"]) / "projection.gql"
    path.write_text("{ urn ... on Dataset { subTypes { typeNames } domain { domain { urn } } } }")
    out = search(cli_env, "*", "--filter", f"platform={s.p1}", "--filter", "entity_type=dataset", "--projection", f"@{path}")
    got = {r["entity"]["urn"]: r["entity"] for r in out["searchResults"]}
    assert got[s.customers]["subTypes"] == {"typeNames": ["View"]}
    assert got[s.customers]["domain"] == {"domain": {"urn": s.sales}}
    assert got[s.refunds]["domain"] is None


@direct_only
def test_table_output(seeded: Seeded, cli_env: Dict[str, str]) -> None:
    done = _run(cli_env, "*", "--filter", f"platform={seeded.p1}", "--filter", "entity_type=dataset", "--table")
    assert done.returncode == 0, done.stderr
    for name in ("orders", "customers", "refunds"):
        assert name in done.stdout
    assert "Everyone who ever bought" in done.stdout
    assert "Showing 1-3 of 3 results" in done.stdout


def test_paging_by_offset(seeded: Seeded, cli_env: Dict[str, str]) -> None:
    s = seeded
    seen: List[str] = []
    offset = 0
    while offset < len(s.listed):
        page = search(cli_env, "*", "--where", mine(s), "--limit", "3", "--offset", str(offset))
        assert page["total"] == len(s.listed) and page["start"] == offset
        batch = [r["entity"]["urn"] for r in page["searchResults"]]
        assert page["count"] == len(batch) == min(3, len(s.listed) - offset)
        seen += batch
        offset += len(batch)
    assert len(seen) == len(set(seen)), f"a urn on two pages: {seen}"
    assert set(seen) == s.listed
    past = search(cli_env, "*", "--where", mine(s), "--limit", "3", "--offset", str(offset))
    assert past["searchResults"] == [] and past["total"] == len(s.listed)


@direct_only
def test_sort_by_name(seeded: Seeded, cli_env: Dict[str, str]) -> None:
    s = seeded
    names = []
    for offset in (0, 2, 4):
        page = search(cli_env, "*", "--where", f"{mine(s)} AND entity_type = dataset", "--sort-by", "name", "--sort-order", "asc",
                      "--limit", "2", "--offset", str(offset))
        names += [r["entity"]["properties"]["name"] for r in page["searchResults"]]
    assert names == sorted(["orders", "customers", "refunds", "events", "clicks", "sessions"])
    desc = search(cli_env, "*", "--where", f"{mine(s)} AND entity_type = dataset", "--sort-by", "name", "--sort-order", "desc", "--limit", "1")
    assert [r["entity"]["properties"]["name"] for r in desc["searchResults"]] == ["sessions"]


@direct_only
@pytest.mark.parametrize("where, field", [("deprecated = true", "deprecated"), ("container = 'urn:li:container:x'", "browsePathV2")])
def test_filters_the_catalog_lacks_say_so(seeded: Seeded, cli_env: Dict[str, str], where: str, field: str) -> None:
    """Fields the catalog does not index are an error naming them, never a silently empty answer."""
    done = _run(cli_env, "*", "--where", where)
    assert done.returncode == 1
    error = json.loads(done.stderr.strip().splitlines()[-1])
    assert error["error"] == "search_error" and f"Unknown filter field '{field}'" in error["message"]


def test_diagnose_and_semantic(seeded: Seeded, cli_env: Dict[str, str]) -> None:
    done = _run(cli_env, "diagnose", "--format", "json")
    assert done.returncode == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["keyword"]["search_works"] is True
    assert report["keyword"]["total_entities"] >= len(seeded.listed)
    assert report["semantic"]["semantic_enabled"] is False
    assert report["semantic"]["config"]["enabled"] is False
    # Semantic search needs DataHub's embeddings: the CLI says so, as it does against a DataHub without them.
    done = _run(cli_env, "--semantic", "orders")
    assert done.returncode == 1
    assert json.loads(done.stderr.strip().splitlines()[-1])["error"] == "semantic_search_unavailable"
