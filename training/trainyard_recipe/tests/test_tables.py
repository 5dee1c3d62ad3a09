"""read_table reads every table format to the same frame, row ids = data row index."""

import gzip

import pandas as pd
import pytest

from trainyard_recipe.errors import BadInput
from trainyard_recipe.tables import read_table


@pytest.fixture
def penguins(tabular_fixtures):
    return read_table(tabular_fixtures / "penguins.csv", {"format": "csv"})


def test_csv_reads_rows_in_file_order_with_na_markers_missing(penguins):
    assert penguins.shape == (344, 8)
    assert list(penguins.index) == list(range(344))
    assert penguins["sex"].isna().sum() == 11  # the file writes these as NA
    assert penguins.loc[0, "species"] == "Adelie" and penguins.loc[343, "species"] == "Chinstrap"


def test_tsv_gzip_parquet_and_latin1_read_to_the_same_frame(penguins, tmp_path):
    tsv = tmp_path / "p.tsv"
    penguins.to_csv(tsv, sep="\t", index=False)
    gz = tmp_path / "p.csv.gz"
    with gzip.open(gz, "wt") as handle:
        penguins.to_csv(handle, index=False)
    parquet = tmp_path / "p.parquet"
    penguins.to_parquet(parquet, index=False)
    latin = tmp_path / "p-latin.csv"
    penguins.to_csv(latin, index=False, encoding="latin-1")
    for path, fmt in [(tsv, {"format": "tsv", "delimiter": "\t"}), (gz, {"format": "csv.gz"}),
                      (parquet, {"format": "parquet"}), (latin, {"format": "csv", "encoding": "latin-1"})]:
        frame = read_table(path, fmt)
        assert frame.isna().equals(penguins.isna())  # parquet keeps None where CSV reads NaN
        pd.testing.assert_frame_equal(frame.fillna(-1), penguins.fillna(-1), check_dtype=False)


def test_headerless_file_gets_numbered_column_names(tmp_path):
    path = tmp_path / "noheader.csv"
    path.write_text("1,a\n2,b\n")
    frame = read_table(path, {"format": "csv", "header": False})
    assert list(frame.columns) == ["column_1", "column_2"] and len(frame) == 2


def test_unknown_format_is_bad_input(tmp_path):
    with pytest.raises(BadInput) as caught:
        read_table(tmp_path / "x", {"format": "xlsx"})
    assert caught.value.code == "invalid_format"
