"""The interop suite's own DataHub Action (test_actions.py): appends every event it is given to a file.

A pipeline names it as `type: "actions_recorder:RecordingAction"` (the Actions framework imports a
type containing ':' as module:class) with `config: {path: <file>}`; the pipeline process must have
this directory on PYTHONPATH. One line per event: {"event_type": ..., "event": <the event's JSON>}.
Each line is flushed and fsynced before act() returns, so once the framework has acked an event the
test can read it.
"""
from __future__ import annotations

import json
import os

from pydantic import BaseModel

from datahub_actions.action.action import Action
from datahub_actions.event.event_envelope import EventEnvelope
from datahub_actions.pipeline.pipeline_context import PipelineContext


class RecordingConfig(BaseModel):
    path: str


class RecordingAction(Action):
    @classmethod
    def create(cls, config_dict: dict, ctx: PipelineContext) -> "Action":
        return cls(RecordingConfig.model_validate(config_dict or {}))

    def __init__(self, config: RecordingConfig):
        self._file = open(config.path, "a", encoding="utf-8")

    def act(self, event: EventEnvelope) -> None:
        line = {"event_type": event.event_type, "event": json.loads(event.event.as_json())}
        self._file.write(json.dumps(line, sort_keys=True) + "\n")
        self._file.flush()
        os.fsync(self._file.fileno())

    def close(self) -> None:
        self._file.close()
