"""data.profile on real tables: detected format, column types, missing counts, duplicates."""

import gzip

import pandas as pd
import pytest


def columns_by_name(profile):
    return {c["name"]: c for c in profile["columns"]}


def test_penguins_types_and_na_markers_counted_as_missing(data_job, tabular_fixtures):
    _, out, metrics = data_job("profile", {"dataset": str(tabular_fixtures / "penguins.csv")})
    profile = out["profile.json"]
    assert profile["rows"] == 344 and metrics["rows"] == 344
    assert profile["tableFormat"] == {"format": "csv", "delimiter": ",", "encoding": "utf-8", "header": True,
                                      "quotechar": '"'}
    cols = columns_by_name(profile)
    assert {n: c["type"] for n, c in cols.items()} == {
        "species": "categorical", "island": "categorical", "bill_length_mm": "numeric", "bill_depth_mm": "numeric",
        "flipper_length_mm": "numeric", "body_mass_g": "numeric", "sex": "categorical", "year": "numeric"}
    assert cols["sex"]["missing"] == 11 and cols["bill_length_mm"]["missing"] == 2 and cols["species"]["missing"] == 0
    assert (cols["bill_length_mm"]["min"], cols["bill_length_mm"]["max"]) == (32.1, 59.6)
    assert cols["species"]["topValues"][0] == {"value": "Adelie", "count": 152}
    assert cols["island"]["distinct"] == 3 and len(cols["island"]["preview"]) == 5
    assert profile["sha256"].startswith("f204db2c753b0937")


def test_seattle_date_is_a_datetime_with_its_range(data_job, tabular_fixtures):
    _, out, _ = data_job("profile", {"dataset": str(tabular_fixtures / "seattle_weather.csv")})
    date = columns_by_name(out["profile.json"])["date"]
    assert date["type"] == "datetime" and date["min"].startswith("2012-01-01") and date["max"].startswith("2015-12-31")


def test_diamonds_counts_its_146_exact_duplicates(data_job, tabular_fixtures):
    _, out, _ = data_job("profile", {"dataset": str(tabular_fixtures / "diamonds.csv")})
    profile = out["profile.json"]
    assert profile["rows"] == 53940 and profile["duplicateRows"] == 146
    assert columns_by_name(profile)["price"]["min"] == 326


@pytest.mark.parametrize("variant", ["tsv", "semicolon", "gzip", "parquet", "no_header"])
def test_format_variants_are_detected(variant, data_job, tabular_fixtures, tmp_path):
    penguins = pd.read_csv(tabular_fixtures / "penguins.csv")
    path = tmp_path / f"penguins.{variant}"  # names say nothing: detection goes by content
    if variant == "tsv":
        penguins.to_csv(path, sep="\t", index=False)
    elif variant == "semicolon":
        penguins.to_csv(path, sep=";", index=False)
    elif variant == "gzip":
        with gzip.open(path, "wt") as handle:
            penguins.to_csv(handle, index=False)
    elif variant == "parquet":
        penguins.to_parquet(path, index=False)
    else:
        penguins.dropna().to_csv(path, index=False, header=False)
    _, out, _ = data_job("profile", {"dataset": str(path)})
    fmt = out["profile.json"]["tableFormat"]
    expected = {"tsv": ("tsv", "\t", True), "semicolon": ("csv", ";", True), "gzip": ("csv.gz", ",", True),
                "parquet": ("parquet", ",", True), "no_header": ("csv", ",", False)}[variant]
    assert (fmt["format"], fmt["delimiter"], fmt["header"]) == expected
    rows = 333 if variant == "no_header" else 344
    assert out["profile.json"]["rows"] == rows
    if variant == "no_header":
        assert [c["name"] for c in out["profile.json"]["columns"]][:2] == ["column_1", "column_2"]
    else:
        assert columns_by_name(out["profile.json"])["sex"]["missing"] == 11


def test_id_facts_and_rarest_values_are_profiled(data_job, tabular_fixtures, tmp_path):
    """penguins plus a counting penguin_id and a per-row tag: what the server's target rules read."""
    frame = pd.read_csv(tabular_fixtures / "penguins.csv")
    frame["penguin_id"] = range(1, len(frame) + 1)
    frame["tag"] = [f"P-{i:03d}" for i in range(len(frame))]
    frame.to_csv(tmp_path / "penguins_ids.csv", index=False)
    _, out, _ = data_job("profile", {"dataset": str(tmp_path / "penguins_ids.csv")})
    cols = columns_by_name(out["profile.json"])
    penguin_id = cols["penguin_id"]
    assert (penguin_id["integers"], penguin_id["order"], penguin_id["distinct"]) == (True, "increasing", 344)
    assert cols["body_mass_g"]["integers"] is True and cols["body_mass_g"]["order"] is None
    assert cols["bill_length_mm"]["integers"] is False
    assert "integers" not in cols["species"] and "fewestValues" not in cols["species"]  # 3 values: topValues has all
    assert cols["tag"]["fewestValues"][:2] == [{"value": "P-000", "count": 1}, {"value": "P-001", "count": 1}]
    assert len(cols["tag"]["fewestValues"]) == 10
    # fewest first: the rarest body mass values appear once each
    assert all(v["count"] == 1 for v in cols["body_mass_g"]["fewestValues"])
