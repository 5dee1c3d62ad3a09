"""Input checks shared by the data recipe's jobs (fail fast, name the field)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from trainyard_recipe.errors import BadInput
from trainyard_recipe.tables import normalize_table_format, read_table


def dataset_path(job_input: dict[str, Any], key: str = "dataset") -> Path:
    raw = job_input.get(key)
    if not isinstance(raw, str) or not raw:
        raise BadInput(f"{key} must be the path of the dataset snapshot", code="invalid_input")
    path = Path(raw)
    if not path.is_file():
        raise BadInput(f"{key} {raw} is not a readable file", code="unreadable")
    return path


def load_frame(job_input: dict[str, Any]):
    """(DataFrame, normalized table format) of the dataset named in the input."""
    path = dataset_path(job_input)
    fmt = normalize_table_format(job_input.get("datasetFormat"))
    try:
        frame = read_table(path, fmt)
    except (UnicodeDecodeError, ValueError, OSError) as exc:
        raise BadInput(f"dataset {path.name} cannot be read as {fmt['format']}: {exc}", code="unreadable") from None
    frame.columns = [str(name) for name in frame.columns]
    return frame, fmt


def require_column(frame, name: Any, field: str) -> str:
    if not isinstance(name, str) or not name:
        raise BadInput(f"{field} must name a column", code="invalid_input")
    if name not in frame.columns:
        shown = ", ".join(list(frame.columns)[:20])
        more = f" (and {len(frame.columns) - 20} more)" if len(frame.columns) > 20 else ""
        raise BadInput(f"{field} {name!r} is not a column of the dataset; columns: {shown}{more}",
                       code="unknown_column", details={"field": field, "column": name})
    return name


def fractions_from_input(raw: Any) -> dict[str, float]:
    fractions = {"train": 0.7, "validation": 0.15, "test": 0.15}
    if raw is None:
        return fractions
    if not isinstance(raw, dict) or set(raw) - set(fractions):
        raise BadInput("fractions must be an object with train, validation and test", code="invalid_input")
    fractions.update({k: float(v) for k, v in raw.items()})
    if any(v < 0 for v in fractions.values()) or abs(sum(fractions.values()) - 1) > 1e-6 or fractions["train"] <= 0:
        raise BadInput(f"fractions must be non-negative, train > 0, and sum to 1; got {fractions}", code="invalid_input")
    return fractions
