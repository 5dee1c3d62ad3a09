"""Normalised row hashes: the one rule by which a training row and a holdout row are "the
same row" (issue 32: a reserved holdout must never be trained, tuned or tested on).

A row is its values in the named columns (sorted by name, so column order does not count),
each written canonically: missing as nothing, anything that reads as a number as that
number (1, "1", 1.0 and " 1.00 " are one value), text with Unicode NFC, outer spaces
trimmed and case folded. The hash is 8 bytes of BLAKE2b, as 16 hex digits: at a million
rows the chance that two different rows collide is about 3e-8.

The data recipe writes a split's trained rows with this rule (trained_rows.txt) and the
evaluator reads a holdout with it, so both must import it from here. pandas is imported
inside the functions: this package imports without third-party libraries.
"""

from __future__ import annotations

import hashlib
import json
import math
import unicodedata
from typing import Any, Iterable

FILE_VERSION = 1
_SEPARATOR = "\x1f"


def canonical_value(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float) and math.isnan(value):
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(float(value))
    try:  # pandas NA / NaT and numpy scalars
        import pandas as pd

        if pd.isna(value):
            return ""
        if isinstance(value, pd.Timestamp):
            return value.isoformat()
    except (TypeError, ValueError):
        pass
    if hasattr(value, "item") and not isinstance(value, str):  # numpy number or bool
        return canonical_value(value.item())
    text = unicodedata.normalize("NFC", str(value)).strip()
    try:
        number = float(text)
        if math.isfinite(number):
            return repr(number)
    except ValueError:
        pass
    return text.casefold()


def _column_cells(series) -> list[str]:
    import pandas as pd

    if pd.api.types.is_numeric_dtype(series) and not pd.api.types.is_bool_dtype(series):
        return ["" if math.isnan(x) else repr(x) for x in series.astype(float).tolist()]
    return [canonical_value(v) for v in series.tolist()]


def row_hashes(frame, columns: Iterable[str]) -> list[str]:
    """One hash per row of `frame` (in its order) over `columns`."""
    names = sorted(columns)
    cells = [_column_cells(frame[name]) for name in names]
    out = []
    for i in range(len(frame)):
        text = _SEPARATOR.join(column[i] for column in cells)
        out.append(hashlib.blake2b(text.encode("utf-8"), digest_size=8).hexdigest())
    return out


def write_rows_file(path, columns: Iterable[str], hashes: Iterable[str]) -> int:
    """The rows a model learnt from: a JSON header line, then the sorted distinct hashes."""
    unique = sorted(set(hashes))
    with open(path, "w", encoding="utf-8", newline="\n") as handle:
        handle.write(json.dumps({"version": FILE_VERSION, "columns": sorted(columns), "rows": len(unique)}) + "\n")
        for h in unique:
            handle.write(h + "\n")
    return len(unique)


def read_rows_file(path) -> tuple[list[str], set[str]]:
    """(columns, hashes) of a file write_rows_file wrote; ValueError when it is not one."""
    with open(path, encoding="utf-8") as handle:
        header = json.loads(handle.readline())
        if not isinstance(header, dict) or header.get("version") != FILE_VERSION or not isinstance(header.get("columns"), list):
            raise ValueError("not a trained-rows file (its first line is not the version 1 header)")
        hashes = {line.strip() for line in handle if line.strip()}
    if len(hashes) != header.get("rows"):
        raise ValueError(f"the file says {header.get('rows')} rows and holds {len(hashes)}")
    return [str(c) for c in header["columns"]], hashes
