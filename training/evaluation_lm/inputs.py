"""The score job's input, checked before any model is loaded (fail fast, name the field)."""

from __future__ import annotations

import json
from pathlib import Path

from trainyard_recipe import BadInput


def _invalid(key: str, why: str) -> BadInput:
    return BadInput(f"input field {key!r} {why}", code="invalid_input", details={"field": key})


def integer(job_input: dict, key: str, default: int | None, minimum: int, maximum: int | None = None) -> int | None:
    value = job_input.get(key, default)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not float(value).is_integer():
        raise _invalid(key, f"must be an integer, got {value!r}")
    if value < minimum or (maximum is not None and value > maximum):
        raise _invalid(key, f"must be between {minimum} and {maximum if maximum is not None else 'any'}, got {value!r}")
    return int(value)


def folder(job_input: dict, key: str) -> Path:
    value = job_input.get(key)
    if not isinstance(value, str) or not value:
        raise BadInput(f"input is missing required field(s): {key}", code="missing_field", details={"fields": [key]})
    path = Path(value)
    if not path.is_dir():
        raise BadInput(f"{key}: {value} is not a job's output folder", code="not_found", details={"field": key})
    return path


def base_model(root: Path) -> tuple[Path, str]:
    """(model folder, snapshotSha256) of an import_base output: the base's identity is part of
    the evaluation contract, so a bare folder without base.json is refused."""
    listing = root / "base.json"
    model_dir = root / "model"
    if not listing.is_file() or not (model_dir / "config.json").is_file():
        raise BadInput(f"model: {root} is not an import_base output (model/ and base.json)", code="missing_input",
                       details={"field": "model"})
    return model_dir, json.loads(listing.read_text(encoding="utf-8"))["snapshotSha256"]


def adapter_folder(root: Path) -> Path:
    """A train output (holding adapter/) or an adapter folder itself."""
    found = root / "adapter" if (root / "adapter").is_dir() else root
    if not (found / "adapter_model.safetensors").is_file() or not (found / "adapter_config.json").is_file():
        raise BadInput(f"adapter: {root} holds no adapter_model.safetensors and adapter_config.json",
                       code="missing_input", details={"field": "adapter"})
    return found


def eval_file(root: Path) -> Path:
    path = root / "eval.jsonl"
    if not path.is_file():
        raise BadInput(f"data: {root} is not a check_data output (no eval.jsonl)", code="missing_input",
                       details={"field": "data"})
    return path
