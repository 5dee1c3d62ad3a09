"""feature_schema.json: the columns a trained model needs, and the check new rows must pass.

Built from the training partition only. Each feature: name, pandas dtype, kind
(numeric | boolean | categorical | text | datetime, from AutoGluon's own feature
inference when given), allowed categories (most frequent first, capped) or min/max,
whether missing values were seen, and an example value. The "Try predictions" form and
the exported predict.py are built from it.
"""

from __future__ import annotations

import math

import pandas as pd
from trainyard_recipe import BadInput

SCHEMA_VERSION = 1
MAX_CATEGORIES = 50


def _plain(value):
    """A JSON-safe scalar (numpy scalars and timestamps become Python values)."""
    if value is None:
        return None
    if hasattr(value, "item"):
        value = value.item()
    if isinstance(value, float) and not math.isfinite(value):
        return None
    if isinstance(value, (str, int, float, bool)):
        return value
    return str(value)


def _kind(series: pd.Series, raw_type: str | None, special: list) -> str:
    if "text" in special:
        return "text"
    if "datetime_as_object" in special or raw_type == "datetime" or pd.api.types.is_datetime64_any_dtype(series):
        return "datetime"
    if pd.api.types.is_bool_dtype(series):
        return "boolean"
    if pd.api.types.is_numeric_dtype(series):
        return "numeric"
    return "categorical"


def build_schema(train: pd.DataFrame, features: list, feature_metadata=None) -> dict:
    columns = []
    for name in features:
        series = train[name]
        raw_type = special = None
        if feature_metadata is not None and name in feature_metadata.get_features():
            raw_type = feature_metadata.get_feature_type_raw(name)
            special = feature_metadata.get_feature_types_special(name)
        kind = _kind(series, raw_type, special or [])
        non_null = series.dropna()
        entry = {
            "name": name,
            "dtype": str(series.dtype),
            "kind": kind,
            "nullable": bool(series.isna().any()),
            "usedByModel": feature_metadata is None or name in feature_metadata.get_features(),
            "example": _plain(non_null.iloc[0]) if len(non_null) else None,
        }
        if kind == "numeric":
            entry["min"] = _plain(non_null.min()) if len(non_null) else None
            entry["max"] = _plain(non_null.max()) if len(non_null) else None
        elif kind in ("categorical", "boolean"):
            counts = non_null.astype(str).value_counts()
            entry["categories"] = [str(c) for c in counts.index[:MAX_CATEGORIES]]
            entry["categoriesTruncated"] = bool(len(counts) > MAX_CATEGORIES)
        columns.append(entry)
    return {"version": SCHEMA_VERSION, "features": columns}


def conform(frame: pd.DataFrame, schema: dict) -> pd.DataFrame:
    """Return the schema's columns in order with the training dtypes, or raise BadInput
    `schema_mismatch` naming every missing column and every column of the wrong type."""
    specs = schema["features"]
    missing = [s["name"] for s in specs if s["name"] not in frame.columns]
    wrong: list[str] = []
    out = {}
    for spec in specs:
        name = spec["name"]
        if name in missing:
            continue
        column = frame[name]
        try:
            out[name] = _coerce(column, spec)
        except (TypeError, ValueError):
            wrong.append(f"{name} (expected {spec['kind']} {spec['dtype']}, got {column.dtype})")
    if missing or wrong:
        parts = []
        if missing:
            parts.append("missing columns: " + ", ".join(missing))
        if wrong:
            parts.append("columns of the wrong type: " + ", ".join(wrong))
        raise BadInput("input rows do not match the model's feature schema; " + "; ".join(parts),
                       code="schema_mismatch", details={"missing": missing, "wrongType": wrong})
    return pd.DataFrame(out, index=frame.index)


def _coerce(column: pd.Series, spec: dict) -> pd.Series:
    kind, dtype = spec["kind"], spec["dtype"]
    if kind == "numeric":
        if pd.api.types.is_bool_dtype(column):
            raise TypeError("boolean where a number is expected")
        numbers = pd.to_numeric(column, errors="raise")
        if dtype.startswith("float") or numbers.isna().any():
            return numbers.astype("float64")
        return numbers.astype(dtype)
    if kind == "boolean" and dtype == "bool":
        if pd.api.types.is_bool_dtype(column):
            return column
        mapped = column.map(lambda v: {"true": True, "false": False}.get(str(v).strip().lower()))
        if mapped.isna().any():
            raise ValueError("values other than true/false")
        return mapped.astype(bool)
    if dtype == "object" and not pd.api.types.is_object_dtype(column):
        if pd.api.types.is_numeric_dtype(column) and kind != "categorical":
            raise TypeError("a number where text is expected")
        return column.astype(object).where(column.notna(), None).map(lambda v: v if v is None else str(v))
    return column
