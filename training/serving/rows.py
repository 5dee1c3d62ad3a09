"""Rows of a predict request checked against the export's feature_schema.json, one field-level
problem per bad value (`rows[3].bill_length_mm`), before anything reaches the model."""

from __future__ import annotations

import math

MAX_LISTED = 50


def _problem(spec: dict, value) -> str | None:
    kind = spec["kind"]
    if value is None:
        return None  # a missing value: the model was trained to handle them
    if kind == "numeric":
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return f"expected a number, got {type(value).__name__}"
        if isinstance(value, float) and not math.isfinite(value):
            return "expected a finite number"
        return None
    if kind == "boolean":
        if isinstance(value, bool) or (isinstance(value, str) and value.strip().lower() in ("true", "false")):
            return None
        return "expected true or false"
    if isinstance(value, (str, int, float)) and not isinstance(value, bool):
        return None
    return f"expected text, got {type(value).__name__}"


def check_rows(rows, schema: dict) -> list[dict]:
    """The problems of `rows` (a list of objects), at most MAX_LISTED; [] when all are fine."""
    specs = {spec["name"]: spec for spec in schema["features"]}
    problems: list[dict] = []
    for index, row in enumerate(rows):
        if not isinstance(row, dict):
            problems.append({"path": f"rows[{index}]", "message": "expected an object of column -> value"})
            continue
        for name in sorted(set(row) - set(specs)):
            problems.append({"path": f"rows[{index}].{name}", "message": "not a feature of this model"})
        for name, spec in specs.items():
            if name not in row:
                problems.append({"path": f"rows[{index}].{name}", "message": "missing (send null for an unknown value)"})
            elif (message := _problem(spec, row[name])) is not None:
                problems.append({"path": f"rows[{index}].{name}", "message": f"{message} ({spec['kind']})"})
        if len(problems) >= MAX_LISTED:
            return problems[:MAX_LISTED]
    return problems
