"""data.reference: a monitor's frozen reference (reference.json) — per chosen column, the bins
a served value is counted in and how many rows of one partition (train by default) fell in
each, so drift can later be measured against the data the model learned from.

Categorical values are compared as canonical text (contracts/recipes/data.ts): the server
sees request values as JSON, so a number must read here exactly as JavaScript's String()
writes it, or 3.0 in a CSV and 3 in a request would land in different categories.
"""

from __future__ import annotations

import math
from decimal import Decimal
from typing import Any

import numpy as np
import pandas as pd

from trainyard_recipe.atomic import write_json_atomic
from trainyard_recipe.errors import BadInput
from trainyard_recipe.events import emit
from trainyard_recipe.hashing import sha256_file
from trainyard_recipe.runner import requires

from recipes.data.features import PARTITIONS, locate_split, read_partition
from recipes.data.inputs import dataset_path, load_frame, require_column

KINDS = ("numeric", "categorical")


def _js_number(value: float) -> str:
    """ECMAScript Number::toString: the shortest round-trip digits (Python's repr has the
    same ones), laid out in fixed notation for 1e-7 <= |v| < 1e21, exponent notation outside."""
    if math.isinf(value):
        return "Infinity" if value > 0 else "-Infinity"
    if value == 0:
        return "0"  # JavaScript writes -0 as "0" too
    _sign, digits, exponent = Decimal(repr(abs(value))).as_tuple()
    text = "".join(map(str, digits)).rstrip("0")
    k = len(text)
    n = exponent + len(digits)  # the value is 0.<text> x 10^n
    prefix = "-" if value < 0 else ""
    if k <= n <= 21:
        return prefix + text + "0" * (n - k)
    if 0 < n <= 21:
        return prefix + text[:n] + "." + text[n:]
    if -6 < n <= 0:
        return prefix + "0." + "0" * -n + text
    mantissa = text[0] + ("." + text[1:] if k > 1 else "")
    return f"{prefix}{mantissa}e{'+' if n - 1 >= 0 else '-'}{abs(n - 1)}"


def canonical_text(value: Any) -> str | None:
    """The category a value counts as; None when it is missing."""
    if value is None or (not isinstance(value, str) and pd.api.types.is_scalar(value) and pd.isna(value)):
        return None
    if isinstance(value, (bool, np.bool_)):
        return "true" if value else "false"
    if isinstance(value, (int, np.integer)):
        return str(int(value))
    if isinstance(value, (float, np.floating)):
        return _js_number(float(value))
    return str(value)


def numeric_reference(name: str, series: pd.Series, bins: int) -> dict[str, Any]:
    values = pd.to_numeric(series, errors="coerce").to_numpy(dtype="float64", na_value=np.nan)
    present = values[~np.isnan(values)]
    finite = present[np.isfinite(present)]
    # Quantiles of finite values only: an infinity would turn an interpolated edge into
    # inf or NaN, which JSON cannot carry; infinities still count, in the first or last bin.
    edges = np.unique(np.quantile(finite, [i / bins for i in range(1, bins)])) if len(finite) else np.array([])
    counts = np.bincount(np.searchsorted(edges, present, side="left"), minlength=len(edges) + 1)
    return {"name": name, "kind": "numeric", "edges": [float(e) for e in edges],
            "counts": [int(c) for c in counts] + [int(len(values) - len(present))]}


def categorical_reference(name: str, series: pd.Series, max_categories: int) -> dict[str, Any]:
    texts = [canonical_text(v) for v in series.tolist()]
    tally: dict[str, int] = {}
    for text in texts:
        if text is not None:
            tally[text] = tally.get(text, 0) + 1
    kept = sorted(tally.items(), key=lambda item: (-item[1], item[0]))[:max_categories]
    missing = texts.count(None)
    kept_total = sum(count for _, count in kept)
    return {"name": name, "kind": "categorical", "categories": [text for text, _ in kept],
            "counts": [count for _, count in kept] + [len(texts) - missing - kept_total, missing]}


def _bounded_int(job_input: dict[str, Any], key: str, default: int, low: int, high: int) -> int:
    value = job_input.get(key, default)
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise BadInput(f"{key} must be a whole number from {low} to {high}, got {value!r}", code="invalid_input")
    return value


def _column_specs(raw: Any) -> list[tuple[str, str]]:
    if not isinstance(raw, list) or not raw:
        raise BadInput("columns must be a non-empty list of {name, kind}", code="invalid_input")
    specs = []
    for i, spec in enumerate(raw):
        if not isinstance(spec, dict) or not isinstance(spec.get("name"), str) or not spec["name"] \
                or spec.get("kind") not in KINDS:
            raise BadInput(f"columns[{i}] must be {{name, kind}} with kind one of {', '.join(KINDS)}, got {spec!r}",
                           code="invalid_input")
        specs.append((spec["name"], spec["kind"]))
    return specs


@requires("dataset", "datasetFormat", "split", "columns")
def reference_job(ctx, job_input: dict[str, Any]) -> dict[str, Any]:
    partition_name = job_input.get("partition") or "train"
    if partition_name not in PARTITIONS:
        raise BadInput(f"partition must be one of {', '.join(PARTITIONS)}, got {partition_name!r}",
                       code="invalid_input")
    specs = _column_specs(job_input.get("columns"))
    bins = _bounded_int(job_input, "bins", 10, 2, 50)
    max_categories = _bounded_int(job_input, "maxCategories", 50, 1, 200)
    split, partition_path = locate_split(job_input["split"])
    if split is not None and split.get("snapshotSha256") and sha256_file(dataset_path(job_input)) != split["snapshotSha256"]:
        raise BadInput("the dataset is not the snapshot this split was made on (SHA-256 differs from the split's "
                       "snapshotSha256)", code="split_mismatch")
    frame, _fmt = load_frame(job_input)
    for i, (name, _kind) in enumerate(specs):
        require_column(frame, name, f"columns[{i}].name")
    emit(ctx, "phase", phase="preparing_data", step="reference", partition=partition_name)
    chosen = (read_partition(partition_path, len(frame)) == partition_name).to_numpy()
    rows = frame.loc[chosen]
    columns = [numeric_reference(name, rows[name], bins) if kind == "numeric"
               else categorical_reference(name, rows[name], max_categories) for name, kind in specs]
    reference = {"version": 1, "partition": partition_name, "rows": int(len(rows)), "columns": columns}
    write_json_atomic(ctx.output_dir / "reference.json", reference)
    emit(ctx, "log", message=f"{partition_name}: reference of {len(columns)} columns over {len(rows):,} rows")
    return {"rows": int(len(rows)), "columns": len(columns), "partition": partition_name}
