"""Column type inference and per-column summaries (used by profile and checks).

Types: numeric, categorical, boolean, datetime, text, id_like, and empty (every value
missing). The rules are simple on purpose, so a person can predict them:
  - boolean: pandas bool, or strings that are all true/false, yes/no, t/f, y/n;
  - datetime: ≥ 95 % of non-missing strings look like dates and parse as dates;
  - id_like: every non-missing value distinct (≥ 20 rows) and either integers whose name
    says id, or strings without spaces (codes, keys, UUIDs);
  - text: strings averaging ≥ 30 characters or mostly distinct strings with spaces;
  - categorical: the other strings; numeric: the other numbers.
"""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import pandas as pd

BOOL_WORDS = {"true", "false", "yes", "no", "t", "f", "y", "n"}
DATE_PATTERN = re.compile(
    r"^\s*(\d{4}-\d{1,2}-\d{1,2}([ T]\d{1,2}:\d{2}(:\d{2}(\.\d+)?)?)?(Z|[+-]\d{2}:?\d{2})?"
    r"|\d{1,2}/\d{1,2}/\d{2,4}( \d{1,2}:\d{2}(:\d{2})?)?"
    r"|\d{4}/\d{1,2}/\d{1,2}( \d{1,2}:\d{2}(:\d{2})?)?)\s*$")
ISO_PATTERN = re.compile(r"^\s*\d{4}-\d{2}-\d{2}")
# "id", "row_id", "ID", "customerId" — but not "paid" (camelCase only counts with a capital I)
ID_NAME = re.compile(r"(^|[_\s.-])(id|uuid|guid|key)$|^id[_\s.-]|(?-i:[a-z]Id|ID)$", re.IGNORECASE)
TOP_VALUES = 10
FEWEST_VALUES = 10
PREVIEW_VALUES = 5
MIN_ROWS_FOR_ID = 20


def _non_missing(series: pd.Series) -> pd.Series:
    return series.dropna()


def parse_datetimes(series: pd.Series) -> pd.Series:
    """Parse strings as datetimes (NaT where they do not parse); ISO dates take the fast path."""
    values = series.astype("string")
    sample = values.dropna().head(100)
    fmt = "ISO8601" if len(sample) and sample.str.match(ISO_PATTERN).all() else "mixed"
    parsed = pd.to_datetime(values, errors="coerce", format=fmt, utc=True)
    return parsed.dt.tz_convert(None) if hasattr(parsed, "dt") else parsed


def looks_like_dates(values: pd.Series) -> bool:
    sample = values.astype(str).head(1000)
    if sample.empty or sample.str.match(DATE_PATTERN).mean() < 0.95:
        return False
    return parse_datetimes(sample).notna().mean() >= 0.95


def infer_type(name: str, series: pd.Series) -> str:
    values = _non_missing(series)
    if values.empty:
        return "empty"
    if pd.api.types.is_bool_dtype(series):
        return "boolean"
    if pd.api.types.is_datetime64_any_dtype(series):
        return "datetime"
    unique = values.nunique() == len(values) and len(values) >= MIN_ROWS_FOR_ID
    if pd.api.types.is_numeric_dtype(series):
        integral = pd.api.types.is_integer_dtype(series) or bool(np.all(np.mod(values, 1) == 0))
        if unique and integral and ID_NAME.search(name):
            return "id_like"
        return "numeric"
    strings = values.astype(str)
    lowered = set(strings.str.strip().str.lower().unique()[:10])
    if len(lowered) <= 2 and lowered <= BOOL_WORDS and values.nunique() <= 2:
        return "boolean"
    if looks_like_dates(strings):
        return "datetime"
    has_space = strings.str.contains(r"\s", regex=True).mean()
    if unique and has_space < 0.05:
        return "id_like"
    mean_length = strings.str.len().mean()
    if mean_length >= 30 or (values.nunique() > 0.5 * len(values) and has_space >= 0.5):
        return "text"
    return "categorical"


def _jsonable(value: Any) -> Any:
    if isinstance(value, (np.integer,)):
        return int(value)
    if isinstance(value, (np.floating,)):
        return None if np.isnan(value) else float(value)
    if isinstance(value, (np.bool_,)):
        return bool(value)
    if isinstance(value, pd.Timestamp):
        return value.isoformat()
    return value


def summarize(name: str, series: pd.Series, column_type: str) -> dict[str, Any]:
    """Profile of one column: counts, range or top values, and a short preview."""
    values = _non_missing(series)
    summary: dict[str, Any] = {
        "name": name,
        "type": column_type,
        "dtype": str(series.dtype),
        "missing": int(series.isna().sum()),
        "distinct": int(values.nunique()),
        "preview": [str(v) for v in values.head(PREVIEW_VALUES).tolist()],
    }
    if column_type == "numeric" and not values.empty:
        summary.update(min=_jsonable(values.min()), max=_jsonable(values.max()),
                       mean=_jsonable(values.astype(float).mean()), std=_jsonable(values.astype(float).std()))
    elif column_type == "datetime" and not values.empty:
        parsed = values if pd.api.types.is_datetime64_any_dtype(values) else parse_datetimes(values).dropna()
        summary.update(min=parsed.min().isoformat(), max=parsed.max().isoformat(),
                       unparsed=int(len(values) - len(parsed)))
    if pd.api.types.is_numeric_dtype(series) and not pd.api.types.is_bool_dtype(series) and not values.empty:
        # Facts for "does this look like a row id?" (a whole number counting up or down, one per row).
        summary["integers"] = bool(pd.api.types.is_integer_dtype(series) or np.all(np.mod(values, 1) == 0))
        summary["order"] = ("increasing" if values.is_monotonic_increasing else
                            "decreasing" if values.is_monotonic_decreasing else None)
    if column_type in ("categorical", "boolean", "text", "id_like") or (
            column_type == "numeric" and summary["distinct"] <= TOP_VALUES):
        counts = values.astype(str).value_counts().head(TOP_VALUES)
        summary["topValues"] = [{"value": str(k), "count": int(v)} for k, v in counts.items()]
    if summary["distinct"] > TOP_VALUES:
        # The rarest values, fewest first: as classes, these are the ones a split cannot share out.
        rare = values.astype(str).value_counts()
        rare = rare.iloc[np.lexsort((rare.index.to_numpy(dtype=str), rare.to_numpy()))].head(FEWEST_VALUES)
        summary["fewestValues"] = [{"value": str(k), "count": int(v)} for k, v in rare.items()]
    return summary


def profile_columns(frame: pd.DataFrame) -> list[dict[str, Any]]:
    return [summarize(str(name), frame[name], infer_type(str(name), frame[name])) for name in frame.columns]


def column_types(frame: pd.DataFrame) -> dict[str, str]:
    return {str(name): infer_type(str(name), frame[name]) for name in frame.columns}
