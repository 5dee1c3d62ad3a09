"""read_table: the one reader of dataset snapshots, shared by every recipe.

The table format object comes from data.profile (docs/dev/contracts.md):
  {"format": "csv"|"tsv"|"csv.gz"|"parquet", "delimiter": ",", "encoding": "utf-8"|"latin-1",
   "header": true, "quotechar": '"' (optional)}
Row id = 0-based index of the returned DataFrame, i.e. the data row index in the snapshot
(header excluded). Every recipe must read through here so row ids agree between jobs.
pandas is imported inside the function: this package must import without third-party libs.
"""

from __future__ import annotations

import os
from typing import Any, Mapping, Sequence

from trainyard_recipe.errors import BadInput

FORMATS = ("csv", "tsv", "csv.gz", "parquet")
ENCODINGS = ("utf-8", "latin-1")


def normalize_table_format(table_format: Mapping[str, Any] | None) -> dict[str, Any]:
    """Fill defaults and refuse what read_table cannot read (BadInput code `invalid_format`)."""
    if not isinstance(table_format, Mapping):
        raise BadInput("datasetFormat must be a table format object such as "
                       '{"format": "csv", "delimiter": ",", "encoding": "utf-8", "header": true}',
                       code="invalid_format")
    fmt = table_format.get("format")
    if fmt not in FORMATS:
        raise BadInput(f"table format {fmt!r} is not one of {', '.join(FORMATS)}", code="invalid_format")
    default_delimiter = "\t" if fmt == "tsv" else ","
    delimiter = table_format.get("delimiter") or default_delimiter
    encoding = (table_format.get("encoding") or "utf-8").lower()
    if encoding not in ENCODINGS:
        raise BadInput(f"encoding {encoding!r} is not one of {', '.join(ENCODINGS)}", code="invalid_format")
    if not isinstance(delimiter, str) or len(delimiter) != 1:
        raise BadInput(f"delimiter must be one character, got {delimiter!r}", code="invalid_format")
    header = table_format.get("header", True)
    quotechar = table_format.get("quotechar") or '"'
    return {"format": fmt, "delimiter": delimiter, "encoding": encoding, "header": bool(header),
            "quotechar": quotechar}


def headerless_names(count: int) -> list[str]:
    """Column names used when a file has no header row."""
    return [f"column_{i + 1}" for i in range(count)]


def read_table(path: str | os.PathLike, table_format: Mapping[str, Any],
               columns: Sequence[str] | None = None, as_text: bool = False) -> "Any":
    """Read a snapshot into a pandas.DataFrame with a fresh 0-based RangeIndex (the row id).

    as_text: every cell of a text table as the file writes it (no type inference, no
    missing-value markers; a short row's missing cells are ""), with the same rows and row
    ids as the typed read, so a download can echo each row beside what was computed on it."""
    import pandas as pd  # lazy: see module docstring

    fmt = normalize_table_format(table_format)
    if fmt["format"] == "parquet":
        frame = pd.read_parquet(path, columns=list(columns) if columns else None)
        return frame.reset_index(drop=True)
    options: dict[str, Any] = {
        "sep": fmt["delimiter"],
        "encoding": fmt["encoding"],
        "quotechar": fmt["quotechar"],
        "compression": "gzip" if fmt["format"] == "csv.gz" else None,
        "low_memory": False,  # one dtype per column, not per chunk
    }
    if fmt["header"]:
        options["header"] = 0
    else:
        with _open_text(path, fmt) as handle:
            first = handle.readline()
        import csv

        width = len(next(csv.reader([first], delimiter=fmt["delimiter"], quotechar=fmt["quotechar"]), []))
        options["header"] = None
        options["names"] = headerless_names(width)
    if columns:
        options["usecols"] = list(columns)
    if as_text:
        options.update(dtype=object, keep_default_na=False, na_filter=False)
    frame = pd.read_csv(path, **options)
    if as_text:
        frame = frame.fillna("")
    return frame.reset_index(drop=True)


def header_cells(path: str | os.PathLike, table_format: Mapping[str, Any]) -> list[str]:
    """The header row of a text table exactly as written (pandas renames an empty or a
    repeated name, e.g. "Unnamed: 2" or "a.1"); the first non-blank row, as pandas takes it."""
    import csv

    fmt = normalize_table_format(table_format)
    with _open_text(path, fmt) as handle:
        for row in csv.reader(handle, delimiter=fmt["delimiter"], quotechar=fmt["quotechar"]):
            if row:
                return [row[0].removeprefix("\ufeff"), *row[1:]]  # a byte order mark is not a name
    return []


def _open_text(path: str | os.PathLike, fmt: Mapping[str, Any]):
    if fmt["format"] == "csv.gz":
        import gzip

        return gzip.open(path, "rt", encoding=fmt["encoding"], newline="")
    return open(path, encoding=fmt["encoding"], newline="")
