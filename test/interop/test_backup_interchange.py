"""Backup interchange with DataHub's own tools (issue 28, docs/operations.md §Interchange).

1. `npm run export` writes a file that `datahub ingest` (the real CLI, `file` source, `datahub-rest`
   sink) reads and writes back into a catalog unchanged: the namespace is exported, hard-deleted
   through the SDK, ingested from the file, and exported again; every (urn, aspect, version) value
   and systemMetadata is the same. The suite's stack is the only catalog here, so "another
   instance" is this one with the namespace removed.
2. A file written by DataHub's `file` sink (its FileSink class, the one a recipe's `sink: file`
   runs) imports with `npm run import`, and the SDK reads every aspect back.
"""
from __future__ import annotations

import json
import os
import pathlib
import subprocess
import sys

import pytest
from datahub.emitter.mcp import MetadataChangeProposalWrapper
from datahub.emitter.rest_emitter import DatahubRestEmitter
from datahub.ingestion.api.common import PipelineContext, RecordEnvelope
from datahub.ingestion.graph.client import DataHubGraph
from datahub.ingestion.sink.file import FileSink
from datahub.metadata.schema_classes import (
    DatasetLineageTypeClass,
    DatasetPropertiesClass,
    GlobalTagsClass,
    TagAssociationClass,
    UpstreamClass,
    UpstreamLineageClass,
)

from conftest import GMS_URL, NEO4J_URI, TOKEN, Target

REPO = pathlib.Path(__file__).resolve().parents[2]
VERSION = "lineageCatalog.version"


def _npm(*args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "NEO4J_URI": NEO4J_URI}
    r = subprocess.run(["npm", "run", "--silent", *args], cwd=REPO, env=env, capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, f"npm run {' '.join(args)} failed ({r.returncode}):\n{r.stdout}\n{r.stderr}"
    return r


def _export(path: pathlib.Path, urn_like: str) -> list:
    _npm("export", "--", "--out", str(path), "--urn-like", urn_like, "--quiet")
    return json.loads(path.read_text())


def _by_key(records: list) -> dict:
    """(urn, aspect, version) -> (value, systemMetadata): what must survive the trip."""
    return {
        (r["entityUrn"], r["aspectName"], r["headers"][VERSION]): (json.loads(r["aspect"]["value"]), r["systemMetadata"])
        for r in records
    }


@pytest.fixture(scope="module")
def direct() -> Target:
    from conftest import _target

    return _target("direct")


def test_datahub_ingest_file_source_reads_an_export_and_writes_it_back_unchanged(direct: Target, tmp_path: pathlib.Path) -> None:
    emitter = DatahubRestEmitter(GMS_URL, token=TOKEN)
    from datahub.ingestion.graph.client import DatahubClientConfig

    graph = DataHubGraph(DatahubClientConfig(server=GMS_URL, token=TOKEN))
    ns = direct.ns + "_bkx"
    up, down = (f"urn:li:dataset:(urn:li:dataPlatform:hive,{ns}.{n},PROD)" for n in ("up", "down"))
    for urn, desc in ((up, "v1"), (up, "v2"), (down, "only")):
        emitter.emit(MetadataChangeProposalWrapper(entityUrn=urn, aspect=DatasetPropertiesClass(name=urn[-20:], description=desc)))
    emitter.emit(MetadataChangeProposalWrapper(entityUrn=down, aspect=UpstreamLineageClass(
        upstreams=[UpstreamClass(dataset=up, type=DatasetLineageTypeClass.TRANSFORMED)])))

    scope = f"urn:li:dataset:(urn:li:dataPlatform:hive,{ns}.%"
    first = _export(tmp_path / "first.json", scope)
    assert any(r["headers"][VERSION] == "1" for r in first), "the export holds the archived version"

    for urn in (up, down):
        graph.hard_delete_entity(urn)
    assert _export(tmp_path / "empty.json", scope) == []

    recipe = tmp_path / "recipe.json"
    recipe.write_text(json.dumps({
        "source": {"type": "file", "config": {"path": str(tmp_path / "first.json")}},
        # One record per request: the catalog applies a request as one transaction, so versions
        # of one aspect sent in one batch would collapse into the last (docs/operations.md).
        # The file lists entities in urn order, so a lineage aspect can come before the entity it names:
        # a restore asks for the relaxed existence mode (an Admin may; docs/operations.md).
        "sink": {"type": "datahub-rest", "config": {"server": GMS_URL, "token": TOKEN, "mode": "SYNC",
                                                     "extra_headers": {"X-Lineage-Existence-Mode": "relaxed"}}},
        # A pipeline stamps its own runId on every record it sends unless told not to; a restore
        # keeps the file's systemMetadata (docs/operations.md §Interchange).
        "flags": {"set_system_metadata": False},
    }))
    cli = pathlib.Path(sys.executable).parent / "datahub"
    r = subprocess.run([str(cli), "ingest", "-c", str(recipe)], capture_output=True, text=True, timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr

    second = _export(tmp_path / "second.json", scope)
    assert _by_key(second) == _by_key(first)
    assert graph.get_aspect(down, UpstreamLineageClass).upstreams[0].dataset == up


def test_a_file_written_by_datahubs_file_sink_imports_with_npm_run_import(direct: Target, tmp_path: pathlib.Path) -> None:
    from datahub.ingestion.graph.client import DatahubClientConfig

    ns = direct.ns + "_bks"
    a, b = (f"urn:li:dataset:(urn:li:dataPlatform:hive,{ns}.{n},PROD)" for n in ("a", "b"))
    path = tmp_path / "sink.json"
    sink = FileSink.create({"filename": str(path)}, PipelineContext(run_id="file-sink-test"))

    class _Callback:
        def on_success(self, *args, **kwargs) -> None:
            pass

        def on_failure(self, *args, **kwargs) -> None:
            raise AssertionError(args)

    mcps = [
        MetadataChangeProposalWrapper(entityUrn=a, aspect=DatasetPropertiesClass(name="a", description="from the file sink")),
        MetadataChangeProposalWrapper(entityUrn=b, aspect=UpstreamLineageClass(upstreams=[UpstreamClass(dataset=a, type=DatasetLineageTypeClass.TRANSFORMED)])),
        MetadataChangeProposalWrapper(entityUrn=b, aspect=GlobalTagsClass(tags=[TagAssociationClass(tag="urn:li:tag:from_file")])),
    ]
    for m in mcps:
        sink.write_record_async(RecordEnvelope(m, metadata={}), _Callback())
    sink.close()

    out = _npm("import", "--", str(path), "--quiet", "--checkpoint", str(tmp_path / "cp.json"))
    assert "3 records imported" in out.stdout

    graph = DataHubGraph(DatahubClientConfig(server=GMS_URL, token=TOKEN))
    assert graph.get_aspect(a, DatasetPropertiesClass).description == "from the file sink"
    assert graph.get_aspect(b, UpstreamLineageClass).upstreams[0].dataset == a
    assert graph.get_aspect(b, GlobalTagsClass).tags[0].tag == "urn:li:tag:from_file"
