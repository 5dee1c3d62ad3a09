"""joined.csv: the download of "Predict a file", written by the job that read the rows.

Each input row as the file writes it (read_table as_text: same rows, same row ids as the
rows predicted), then `prediction` and one `proba::<class>` column per class. The join is
by row id inside this job, so a quoted line break, a blank line or a byte order mark can
never shift a prediction onto another row (a reader outside would have to parse the file
exactly as pandas does to line them up).

People open this file in a spreadsheet, so every text cell is neutralised against formula
injection (OWASP): a cell starting with =, +, -, @, tab or CR gets a leading single quote
unless it is a plain decimal number. Numbers are written as JavaScript prints them
(3750, 0.000032, 1e-7), as the download always was.
"""

from __future__ import annotations

import math
import re
from decimal import Decimal

import pandas as pd
from trainyard_recipe import read_table
from trainyard_recipe.tables import header_cells

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
# A plain decimal number ("-1.5", "+2", "1e-3"): left as it is so it stays a number.
DECIMAL = re.compile(r"[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?")
NEEDS_QUOTES = re.compile(r'[",\r\n]')


def neutralise(text: str) -> str:
    """Stricter than float(): "\\t1", "-0x1", "-Infinity" and "1e999" are text here."""
    if not text.startswith(FORMULA_START):
        return text
    if DECIMAL.fullmatch(text) and math.isfinite(float(text)):
        return text
    return "'" + text


def js_number(value: float) -> str:
    """The shortest round-trip digits laid out like JavaScript's Number#toString."""
    if not math.isfinite(value):
        return ""
    if value == 0:
        return "0"
    short = repr(float(value))
    if "e" not in short:  # 1e-4 <= |value| < 1e16: Python and JavaScript lay the digits out alike
        return short.removesuffix(".0")
    sign, digits, exponent = Decimal(short).normalize().as_tuple()
    text = "".join(map(str, digits))
    k, n = len(text), len(text) + exponent  # n: where the decimal point falls
    if k <= n <= 21:
        body = text + "0" * (n - k)
    elif 0 < n <= 21:
        body = f"{text[:n]}.{text[n:]}"
    elif -6 < n <= 0:
        body = "0." + "0" * -n + text
    else:
        mantissa = text[0] + ("." + text[1:] if k > 1 else "")
        body = f"{mantissa}e{'+' if n - 1 >= 0 else '-'}{abs(n - 1)}"
    return ("-" if sign else "") + body


def cell(value) -> str:
    """One neutralised, quoted-as-needed CSV field."""
    if hasattr(value, "item") and not isinstance(value, str):
        value = value.item()
    if value is None or (isinstance(value, float) and math.isnan(value)):
        text = ""
    elif isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, (int, float)):
        text = js_number(float(value)) if isinstance(value, float) else str(value)
    else:
        text = neutralise(str(value))
    if NEEDS_QUOTES.search(text) or text != text.strip():
        return '"' + text.replace('"', '""') + '"'
    return text


def text_cells(column: pd.Series) -> list[str]:
    """cell() over a column of the file's own text. A file may hold a million rows, and
    most columns have no cell to change: set and substring tests over the whole column
    say so at C speed, and only a column that has one goes through cell() cell by cell."""
    cells = [str(text) for text in column.tolist()]
    joined = "".join(cells)
    firsts = {text[:1] for text in cells}
    lasts = {text[-1:] for text in cells}
    if (any(c in joined for c in '",\r\n') or any(c and (c in "=+-@" or c.isspace()) for c in firsts)
            or any(c.isspace() for c in lasts)):
        return [cell(text) for text in cells]
    return cells


def computed_cells(column: pd.Series) -> list[str]:
    """cell() over a column the model computed: probabilities and numeric predictions go
    straight to js_number (a number never needs quotes), class names through text_cells."""
    if pd.api.types.is_float_dtype(column):
        return [js_number(value) for value in column.tolist()]
    if pd.api.types.is_object_dtype(column) and all(isinstance(value, str) for value in column.tolist()):
        return text_cells(column)
    return [cell(value) for value in column.tolist()]


def write_joined(output, path, table_format: dict, predictions: pd.DataFrame) -> int:
    """predictions: predict_frame's output (row_id, prediction, proba::<class>…) for the
    table at `path`. Returns the number of data rows written."""
    rows = read_table(path, table_format, as_text=True)
    header = header_cells(path, table_format) if table_format.get("header", True) else []
    if len(header) != rows.shape[1]:
        header = list(rows.columns)  # headerless, or a header pandas read differently: its names
    by_row = predictions.set_index("row_id")
    if len(by_row) != len(rows) or not by_row.index.isin(rows.index).all():
        raise RuntimeError("the rows read as text are not the rows predicted")  # one reader: a bug if reached
    by_row = by_row.loc[rows.index]
    columns = [text_cells(rows[name]) for name in rows.columns]
    columns += [computed_cells(by_row[name]) for name in by_row.columns]
    with open(output, "w", encoding="utf-8", newline="") as handle:
        handle.write(",".join(cell(name) for name in [*header, *by_row.columns]) + "\n")
        handle.writelines(",".join(line) + "\n" for line in zip(*columns))
    return len(rows)
