"""Detect a dataset file's table format and refuse files we cannot read safely.

Every refusal is a BadInput with a stable code and a message that names the limit:
empty_file, header_only, ragged_rows, not_text, invalid_utf8, line_too_long,
too_many_columns, gzip_too_large, unreadable. Files are read as streams, in bounded
chunks, so a 100 MB line or a gzip bomb is refused without holding it in memory.
"""

from __future__ import annotations

import codecs
import csv
import gzip
import io
import zlib
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Iterator

from trainyard_recipe.errors import BadInput

GZIP_MAGIC = b"\x1f\x8b"
PARQUET_MAGIC = b"PAR1"
CHUNK = 1 << 20
SNIFF_SAMPLE_BYTES = 64 * 1024

DEFAULT_LIMITS = {
    "maxLineBytes": 10 * 1024 * 1024,
    "maxColumns": 10_000,
    "maxDecompressedBytes": 2 * 1024 ** 3,
}


def limits_from_input(raw: dict | None) -> dict[str, int]:
    limits = dict(DEFAULT_LIMITS)
    for key, value in (raw or {}).items():
        if key not in DEFAULT_LIMITS:
            raise BadInput(f"unknown limit {key!r}; known limits: {', '.join(DEFAULT_LIMITS)}", code="invalid_input")
        if not isinstance(value, int) or isinstance(value, bool) or value < 1:
            raise BadInput(f"limit {key} must be a positive integer, got {value!r}", code="invalid_input")
        limits[key] = value
    return limits


def _mib(n: int) -> str:
    return f"{n / 1024 ** 2:,.0f} MiB" if n >= 1024 ** 2 else f"{n:,} bytes"


@dataclass
class ScanResult:
    table_format: dict[str, Any]
    columns: list[str]
    rows: int
    decompressed_bytes: int | None = None


def detect_container(path: Path) -> str:
    """'gzip', 'parquet' or 'text', by magic bytes (never by file name)."""
    with open(path, "rb") as handle:
        head = handle.read(4)
    if not head:
        raise BadInput(f"{path.name} is empty (0 bytes)", code="empty_file")
    if head[:2] == GZIP_MAGIC:
        return "gzip"
    if head == PARQUET_MAGIC:
        return "parquet"
    return "text"


def check_gzip_size(path: Path, max_bytes: int) -> int:
    """Decompress as a stream, counting bytes; stop at the cap (a gzip bomb is refused
    after reading at most max_bytes of output, not after filling memory or disk)."""
    total = 0
    try:
        with gzip.open(path, "rb") as stream:
            while chunk := stream.read(CHUNK):
                total += len(chunk)
                if total > max_bytes:
                    raise BadInput(
                        f"{path.name} decompresses to more than {_mib(max_bytes)} (limit maxDecompressedBytes); "
                        "this looks like a gzip bomb or a file too large to profile here",
                        code="gzip_too_large", details={"limit": max_bytes})
    except (OSError, EOFError, zlib.error) as exc:
        raise BadInput(f"{path.name} starts like gzip but cannot be decompressed: {exc}", code="unreadable") from None
    return total


def _open_binary(path: Path, compressed: bool) -> IO[bytes]:
    return gzip.open(path, "rb") if compressed else open(path, "rb")


def scan_bytes(path: Path, compressed: bool, max_line_bytes: int) -> int:
    """One pass over the raw bytes: refuse NUL bytes (binary data) and over-long lines.
    Returns the number of bytes that are not whitespace (0 means an empty table)."""
    line_length = 0
    offset = 0
    content = 0
    with _open_binary(path, compressed) as stream:
        while chunk := stream.read(CHUNK):
            nul = chunk.find(b"\0")
            if nul >= 0:
                raise BadInput(f"{path.name} holds binary data (a NUL byte at offset {offset + nul:,}), "
                               "not a text table; if it is Parquet or Excel, export it as CSV or Parquet",
                               code="not_text", details={"offset": offset + nul})
            content += len(chunk.strip())
            start = 0
            while True:
                newline = chunk.find(b"\n", start)
                end = len(chunk) if newline < 0 else newline
                line_length += end - start
                if line_length > max_line_bytes:
                    raise BadInput(f"{path.name} has a line longer than {_mib(max_line_bytes)} "
                                   "(limit maxLineBytes); is it really a table with one row per line?",
                                   code="line_too_long", details={"limit": max_line_bytes})
                if newline < 0:
                    break
                line_length = 0
                start = newline + 1
            offset += len(chunk)
    return content


def check_encoding(path: Path, compressed: bool, encoding: str) -> None:
    """Decode the whole stream incrementally; name the first bad byte and its line."""
    decoder = codecs.getincrementaldecoder(encoding)(errors="strict")
    offset = 0
    line = 1
    with _open_binary(path, compressed) as stream:
        while chunk := stream.read(CHUNK):
            try:
                decoder.decode(chunk)
            except UnicodeDecodeError as exc:
                bad = offset + exc.start
                line += chunk[: exc.start].count(b"\n")
                raise BadInput(
                    f"{path.name} is not valid UTF-8: byte 0x{chunk[exc.start]:02X} at offset {bad:,} (line {line:,}). "
                    "Files saved by Excel or older systems are often Latin-1: choose the Latin-1 encoding "
                    '(encoding: "latin-1") and profile again', code="invalid_utf8",
                    details={"offset": bad, "line": line, "suggestedEncoding": "latin-1"}) from None
            offset += len(chunk)
            line += chunk.count(b"\n")
        try:
            decoder.decode(b"", final=True)
        except UnicodeDecodeError:
            raise BadInput(f"{path.name} ends in the middle of a UTF-8 character; choose Latin-1 if the file "
                           "is not UTF-8", code="invalid_utf8", details={"suggestedEncoding": "latin-1"}) from None


def _open_text(path: Path, compressed: bool, encoding: str) -> IO[str]:
    # utf-8-sig drops a byte-order mark so the first column's name does not start with one
    codec = "utf-8-sig" if encoding == "utf-8" else encoding
    return io.TextIOWrapper(_open_binary(path, compressed), encoding=codec, newline="")


def _looks_numeric(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def sniff_dialect(sample: str, file_name: str) -> tuple[str, str, bool]:
    """(delimiter, quotechar, header) from a sample of whole lines."""
    lines = sample.splitlines()
    if not lines:
        raise BadInput(f"{file_name} has no lines", code="empty_file")
    try:
        dialect = csv.Sniffer().sniff(sample, delimiters=",;\t|")
        delimiter, quotechar = dialect.delimiter, dialect.quotechar or '"'
    except csv.Error:  # one column, or too little text to decide
        delimiter = "\t" if file_name.lower().endswith((".tsv", ".tsv.gz", ".tab")) else ","
        quotechar = '"'
    first = next(csv.reader([lines[0]], delimiter=delimiter, quotechar=quotechar), [])
    if first and all(field.strip() and not _looks_numeric(field) for field in first) and len(set(first)) == len(first):
        header = True  # names, all distinct and none a number: a header (Sniffer misjudges all-text tables)
    else:
        try:
            header = csv.Sniffer().has_header(sample) if len(lines) > 1 else False
        except csv.Error:
            header = False
    return delimiter, quotechar, header


def iter_records(path: Path, table_format: dict[str, Any], max_line_bytes: int) -> Iterator[list[str]]:
    """Rows as parsed by the csv module, blank lines skipped (as pandas does)."""
    csv.field_size_limit(max(max_line_bytes + 1, 131072))
    with _open_text(path, table_format["format"] == "csv.gz", table_format["encoding"]) as handle:
        for record in csv.reader(handle, delimiter=table_format["delimiter"], quotechar=table_format["quotechar"]):
            if record:
                yield record


def scan_text_table(path: Path, file_name: str, compressed: bool, encoding: str, limits: dict[str, int]) -> ScanResult:
    """Structure checks for CSV/TSV (optionally gzip): encoding, dialect, header, widths."""
    if scan_bytes(path, compressed, limits["maxLineBytes"]) == 0:
        raise BadInput(f"{file_name} holds only whitespace, no table", code="empty_file")
    check_encoding(path, compressed, encoding)
    with _open_text(path, compressed, encoding) as handle:
        sample = handle.read(SNIFF_SAMPLE_BYTES)
        if len(sample) == SNIFF_SAMPLE_BYTES and "\n" in sample:
            sample = sample[: sample.rfind("\n") + 1]  # whole lines only
    delimiter, quotechar, header = sniff_dialect(sample, file_name)
    is_tsv = delimiter == "\t"
    fmt = {"format": "csv.gz" if compressed else ("tsv" if is_tsv else "csv"), "delimiter": delimiter,
           "encoding": encoding, "header": header, "quotechar": quotechar}
    columns: list[str] = []
    width = 0
    rows = 0
    try:
        for number, record in enumerate(iter_records(path, fmt, limits["maxLineBytes"])):
            if number == 0:
                width = len(record)
                if width > limits["maxColumns"]:
                    raise BadInput(f"{file_name} has {width:,} columns; the limit is {limits['maxColumns']:,} "
                                   "(maxColumns)", code="too_many_columns",
                                   details={"columns": width, "limit": limits["maxColumns"]})
                if header:
                    columns = [name.strip() for name in record]
                    continue
                from trainyard_recipe.tables import headerless_names

                columns = headerless_names(width)
            rows += 1
            if len(record) != width:
                what = "the header has" if header else "the first row has"
                raise BadInput(f"{file_name}: data row {rows:,} has {len(record):,} fields, {what} {width:,}",
                               code="ragged_rows", details={"row": rows, "fields": len(record), "expected": width})
    except csv.Error as exc:
        raise BadInput(f"{file_name} cannot be parsed as {fmt['format'].upper()}: {exc}", code="unreadable") from None
    if header and rows == 0:
        raise BadInput(f"{file_name} has a header ({width:,} columns) but no data rows", code="header_only")
    if header and any(not name for name in columns):
        blank = [i + 1 for i, name in enumerate(columns) if not name]
        raise BadInput(f"{file_name}: header column(s) {blank[:10]} have no name", code="unreadable")
    return ScanResult(table_format=fmt, columns=columns, rows=rows)


def scan_parquet(path: Path, file_name: str, limits: dict[str, int]) -> ScanResult:
    import pyarrow.parquet as pq

    try:
        meta = pq.ParquetFile(path).metadata
    except Exception as exc:  # noqa: BLE001 - pyarrow raises several types for a broken file
        raise BadInput(f"{file_name} starts like Parquet but cannot be read: {exc}", code="unreadable") from None
    if meta.num_columns > limits["maxColumns"]:
        raise BadInput(f"{file_name} has {meta.num_columns:,} columns; the limit is {limits['maxColumns']:,} "
                       "(maxColumns)", code="too_many_columns")
    columns = [meta.schema.column(i).name for i in range(meta.num_columns)]
    if meta.num_rows == 0:
        raise BadInput(f"{file_name} has {len(columns):,} columns but no rows", code="header_only")
    return ScanResult(table_format={"format": "parquet", "delimiter": ",", "encoding": "utf-8", "header": True},
                      columns=columns, rows=meta.num_rows)


def scan_table(path: Path, file_name: str, encoding: str, limits: dict[str, int]) -> ScanResult:
    """Detect the format of `path` and check its structure; BadInput when it cannot be used."""
    try:
        container = detect_container(path)
    except OSError as exc:
        raise BadInput(f"{file_name} cannot be read: {exc.strerror or exc}", code="unreadable") from None
    if container == "parquet":
        return scan_parquet(path, file_name, limits)
    decompressed = None
    if container == "gzip":
        decompressed = check_gzip_size(path, limits["maxDecompressedBytes"])
        if decompressed == 0:
            raise BadInput(f"{file_name} is an empty gzip file", code="empty_file")
    result = scan_text_table(path, file_name, container == "gzip", encoding, limits)
    result.decompressed_bytes = decompressed
    return result
