"""joined.csv, the "Predict a file" download: rows as written, joined to predictions by row id."""

from __future__ import annotations

import pandas as pd
import pytest

from recipes.tabular.joined import cell, computed_cells, js_number, neutralise, text_cells, write_joined

CSV = {"format": "csv", "delimiter": ",", "encoding": "utf-8", "header": True}


def predictions_for(n: int) -> pd.DataFrame:
    """What predict_frame returns, in an order other than the file's (the join is by row id)."""
    ids = list(reversed(range(n)))
    return pd.DataFrame({"row_id": ids, "prediction": [f"class{i}" for i in ids],
                         "proba::a": [i / 10 for i in ids], "proba::b": [1 - i / 10 for i in ids]})


def test_each_row_keeps_its_own_prediction_across_quoted_line_breaks_blank_lines_and_a_bom(tmp_path):
    rows = tmp_path / "rows.csv"
    # A position-based join on physical lines would put row 1's prediction on "lines" and
    # shift every later row; the blank lines and the BOM shift a naive one more.
    rows.write_bytes('\ufeffnote,x\n"two\nlines",1\n\n"say ""hi""",NA\r\n\nlast,\n'.encode("utf-8"))
    assert write_joined(tmp_path / "joined.csv", rows, CSV, predictions_for(3)) == 3
    assert (tmp_path / "joined.csv").read_text(encoding="utf-8") == (
        "note,x,prediction,proba::a,proba::b\n"
        '"two\nlines",1,class0,0,1\n'
        '"say ""hi""",NA,class1,0.1,0.9\n'
        "last,,class2,0.2,0.8\n"
    )


def test_the_header_is_echoed_as_written_even_where_pandas_renames_it(tmp_path):
    rows = tmp_path / "rows.csv"
    rows.write_text("a,a,\n1,2,3\n", encoding="utf-8")  # pandas reads a, a.1, Unnamed: 2
    write_joined(tmp_path / "joined.csv", rows, CSV, predictions_for(1))
    assert (tmp_path / "joined.csv").read_text().splitlines()[0] == "a,a,,prediction,proba::a,proba::b"


def test_text_cells_are_neutralised_and_numbers_stay_numbers(tmp_path):
    rows = tmp_path / "rows.csv"
    rows.write_text("=x,temp\n@me,-1.5\n+1+1,-2\n", encoding="utf-8")
    predictions = pd.DataFrame({"row_id": [0, 1], "prediction": ["=cmd|' /C calc'!A0", "-1.5"],
                                "proba::=evil": [0.75, 0.5], "proba::b": [0.25, 0.5]})
    write_joined(tmp_path / "joined.csv", rows, CSV, predictions)
    assert (tmp_path / "joined.csv").read_text() == (
        "'=x,temp,prediction,proba::=evil,proba::b\n"
        + "'@me,-1.5,'=cmd|' /C calc'!A0,0.75,0.25\n"
        + "'+1+1,-2,-1.5,0.5,0.5\n"
    )


@pytest.mark.parametrize("text", ['=HYPERLINK("http://x")', "+1+1", "-2+3", "@SUM(A1)", "\tcmd", "\r=1", "-",
                                  "-Infinity", "-0x1A", "=1", "+1e999"])
def test_a_cell_a_spreadsheet_would_run_gets_a_leading_quote(text):
    assert neutralise(text) == "'" + text


@pytest.mark.parametrize("text", ["-1.5", "+2", "-3e-4", "-.5", "12", "plain text", "a=b", ""])
def test_a_number_or_plain_text_is_left_as_it_is(text):
    assert neutralise(text) == text


@pytest.mark.parametrize("value, text", [(3750.0, "3750"), (0.1, "0.1"), (3.2e-05, "0.000032"), (1e-7, "1e-7"),
                                         (1.5e-10, "1.5e-10"), (1e21, "1e+21"), (123456.789, "123456.789"),
                                         (-0.0, "0"), (-2.5, "-2.5"), (float("nan"), ""), (2**53 + 0.0, "9007199254740992")])
def test_numbers_print_as_the_download_always_printed_them(value, text):
    assert js_number(value) == text


def test_fields_are_quoted_only_when_they_need_it():
    assert [cell(v) for v in ["a,b", 'say "hi"', " pad", "two\nlines", None, True, 7]] == [
        '"a,b"', '"say ""hi"""', '" pad"', '"two\nlines"', "", "true", "7"]


def test_the_file_s_cells_are_written_as_cell_writes_each_one():
    texts = ["plain", "=1+1", "-1.5", "-", "a,b", 'say "hi"', " pad", "pad\u00a0", "two\nlines", "", "+1e999", "\tx",
             "@a,b", "'quoted", "end\x1f"]
    assert text_cells(pd.Series(texts, dtype=object)) == [cell(t) for t in texts]
    for text in texts:  # alone in its column, each one is found
        assert text_cells(pd.Series(["ok", text, "ok"], dtype=object)) == ["ok", cell(text), "ok"]


@pytest.mark.parametrize("values", [[0.25, 3.2e-05, float("nan"), 4.0], ["Adelie", "=evil", "a,b"], [1, 2], [True, False],
                                    [0.0, 1.0]])
def test_a_computed_column_is_written_as_cell_writes_each_value(values):
    column = pd.Series(values)
    assert computed_cells(column) == [cell(value) for value in column.tolist()]
