"""Reading one field of a job's input: a wrong type or range is BadInput naming the field."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from trainyard_recipe import BadInput


def _invalid(key: str, why: str) -> BadInput:
    return BadInput(f"input field {key!r} {why}", code="invalid_input", details={"field": key})


def number(job_input: dict, key: str, default: float | None, *, minimum: float | None = None,
           maximum: float | None = None, integer: bool = False) -> Any:
    value = job_input.get(key, default)
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, (int, float)) or (integer and not float(value).is_integer()):
        raise _invalid(key, f"must be {'an integer' if integer else 'a number'}, got {value!r}")
    if minimum is not None and value < minimum:
        raise _invalid(key, f"must be at least {minimum}, got {value!r}")
    if maximum is not None and value > maximum:
        raise _invalid(key, f"must be at most {maximum}, got {value!r}")
    return int(value) if integer else float(value)


def choice(job_input: dict, key: str, allowed: tuple[str, ...], default: str) -> str:
    value = job_input.get(key, default)
    if value not in allowed:
        raise _invalid(key, f"must be one of {', '.join(allowed)}, got {value!r}")
    return value


def existing_path(job_input: dict, key: str, *, required: bool = True) -> Path | None:
    value = job_input.get(key)
    if value in (None, ""):
        if required:
            raise BadInput(f"input is missing required field(s): {key}", code="missing_field",
                           details={"fields": [key]})
        return None
    if not isinstance(value, str):
        raise _invalid(key, f"must be a path, got {value!r}")
    path = Path(value)
    if not path.exists():
        raise BadInput(f"{key}: {value} does not exist", code="not_found", details={"field": key})
    return path
