"""Validation of job inputs shared by `baseline` and `score` (fail fast, name the field)."""

from __future__ import annotations

import os
import re

from trainyard_recipe import BadInput

TASKS = ("binary", "multiclass", "regression")
SHA256_RE = re.compile(r"^[0-9a-f]{64}$")


def require(inputs: dict, field: str, kind=str):
    value = inputs.get(field)
    if value is None:
        raise BadInput(f"input field '{field}' is required", code="invalid_input")
    if not isinstance(value, kind):
        raise BadInput(f"input field '{field}' must be {getattr(kind, '__name__', kind)}", code="invalid_input")
    return value


def require_task(inputs: dict) -> str:
    task = require(inputs, "task")
    if task not in TASKS:
        raise BadInput(f"input field 'task' must be one of {TASKS}, got {task!r}", code="invalid_input")
    return task


def resolve_file(path: str, default_name: str, field: str) -> str:
    """A reference resolves to a file or to a job's output folder; in a folder, take
    the file the producing job writes under `default_name`."""
    if os.path.isdir(path):
        path = os.path.join(path, default_name)
    if not os.path.isfile(path):
        raise BadInput(f"input field '{field}': no file at {path}", code="missing_input")
    return path


def optional_sha(value, field: str, required: bool) -> str | None:
    if value is None and not required:
        return None
    if not isinstance(value, str) or not SHA256_RE.match(value):
        raise BadInput(f"contract field '{field}' must be a lowercase hex SHA-256", code="invalid_input")
    return value
