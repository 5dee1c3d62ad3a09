"""Every file data.profile must refuse, each with its stable code and a message naming the limit."""

import gzip
import sys
import zlib

import pytest

from trainyard_recipe.errors import BadInput


def refusal(data_job, path, **extra):
    with pytest.raises(BadInput) as caught:
        data_job("profile", {"dataset": str(path), **extra})
    return caught.value


def test_empty_file(data_job, tmp_path):
    (tmp_path / "empty.csv").write_bytes(b"")
    assert refusal(data_job, tmp_path / "empty.csv").code == "empty_file"


def test_header_only(data_job, tmp_path):
    (tmp_path / "h.csv").write_text("species,island,bill_length_mm\n")
    error = refusal(data_job, tmp_path / "h.csv")
    assert error.code == "header_only" and "no data rows" in error.message


def test_ragged_rows_name_the_row_and_the_widths(data_job, tabular_fixtures, tmp_path):
    lines = (tabular_fixtures / "penguins.csv").read_text().splitlines()
    lines[5] += ",extra"  # data row 5 gets a ninth field
    (tmp_path / "ragged.csv").write_text("\n".join(lines) + "\n")
    error = refusal(data_job, tmp_path / "ragged.csv")
    assert error.code == "ragged_rows"
    assert "data row 5 has 9 fields, the header has 8" in error.message


def test_binary_file_named_csv(data_job, tmp_path):
    with open(sys.executable, "rb") as handle:  # a real binary (the Python interpreter)
        (tmp_path / "data.csv").write_bytes(handle.read(256 * 1024))
    error = refusal(data_job, tmp_path / "data.csv")
    assert error.code == "not_text" and "binary" in error.message


def test_invalid_utf8_suggests_latin1_and_latin1_then_works(data_job, tabular_fixtures, tmp_path):
    text = (tabular_fixtures / "penguins.csv").read_text().replace("Dream", "Rêve")
    path = tmp_path / "latin.csv"
    path.write_bytes(text.encode("latin-1"))
    error = refusal(data_job, path)
    assert error.code == "invalid_utf8" and "Latin-1" in error.message
    assert "0xEA" in error.message and error.details["line"] > 1
    _, out, _ = data_job("profile", {"dataset": str(path), "encoding": "latin-1"})
    island = next(c for c in out["profile.json"]["columns"] if c["name"] == "island")
    assert {"value": "Rêve", "count": 124} in island["topValues"]
    assert out["profile.json"]["tableFormat"]["encoding"] == "latin-1"


def test_a_single_100_mb_line(data_job, tmp_path):
    path = tmp_path / "long.csv"
    with open(path, "wb") as handle:
        handle.write(b"a,b\n1,")
        chunk = b"x" * (1 << 20)
        for _ in range(100):
            handle.write(chunk)
        handle.write(b"\n")
    error = refusal(data_job, path)
    assert error.code == "line_too_long" and "10 MiB" in error.message and "maxLineBytes" in error.message


def test_50000_columns(data_job, tmp_path):
    path = tmp_path / "wide.csv"
    path.write_text(",".join(f"c{i}" for i in range(50_000)) + "\n" + ",".join("1" * 50_000) + "\n")
    error = refusal(data_job, path)
    assert error.code == "too_many_columns" and "50,000" in error.message and "10,000" in error.message


def test_gzip_bomb_is_refused_at_the_default_2_gib_limit(data_job, tmp_path):
    # 33 gzip members of 64 MiB each: ~2.1 GiB of CSV text from a file of a few hundred KiB
    member = gzip.compress(b"1,2,3,4,5,6,7,8\n" * (4 << 20), compresslevel=9)
    path = tmp_path / "bomb.csv.gz"
    with open(path, "wb") as handle:
        handle.write(gzip.compress(b"a,b,c,d,e,f,g,h\n"))
        for _ in range(33):
            handle.write(member)
    assert path.stat().st_size < 8 << 20
    error = refusal(data_job, path)
    assert error.code == "gzip_too_large" and "2,048 MiB" in error.message


def test_corrupt_gzip_is_unreadable(data_job, tmp_path):
    data = gzip.compress(b"a,b\n1,2\n" * 1000)
    (tmp_path / "broken.csv.gz").write_bytes(data[: len(data) // 2])
    assert refusal(data_job, tmp_path / "broken.csv.gz").code == "unreadable"


def test_missing_file_is_unreadable(data_job, tmp_path):
    assert refusal(data_job, tmp_path / "nope.csv").code == "unreadable"


def test_limits_can_be_lowered_per_job(data_job, tabular_fixtures):
    error = refusal(data_job, tabular_fixtures / "penguins.csv", limits={"maxColumns": 5})
    assert error.code == "too_many_columns" and "the limit is 5" in error.message
