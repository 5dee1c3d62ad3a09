"""The outputs of earlier jobs that export, generate and merge read: the base's identity
(base.json of import_base) and the adapter folder of train."""

from __future__ import annotations

import json
from pathlib import Path

from trainyard_recipe import BadInput, sha256_file

ADAPTER_WEIGHTS = "adapter_model.safetensors"
ADAPTER_CONFIG = "adapter_config.json"


def adapter_dir(path: Path) -> Path:
    """A train output folder (holding adapter/) or an adapter folder itself."""
    folder = path / "adapter" if (path / "adapter").is_dir() else path
    if not (folder / ADAPTER_WEIGHTS).is_file() or not (folder / ADAPTER_CONFIG).is_file():
        raise BadInput(f"{path} is not a train output: it has no adapter/{ADAPTER_WEIGHTS} and {ADAPTER_CONFIG}",
                       code="invalid_input", details={"field": "adapter"})
    return folder


def adapter_sha256(folder: Path) -> str:
    return sha256_file(folder / ADAPTER_WEIGHTS)


def read_base(model_root: Path) -> dict | None:
    """base.json of an import_base output; None for a bare model folder."""
    path = model_root / "base.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else None


def identity(base: dict | None) -> dict | None:
    """What names the base wherever its weights are not included."""
    if base is None:
        return None
    return {key: base[key] for key in ("name", "snapshotSha256", "source", "dequantizedFrom")}
