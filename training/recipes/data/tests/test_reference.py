"""data.reference: per-column bins and counts of one partition, the frame a monitor compares
served values against."""

import json

import numpy as np
import pandas as pd
import pytest

from trainyard_recipe.errors import BadInput
from trainyard_recipe.hashing import sha256_file

from recipes.data.reference import canonical_text, reference_job

PENGUIN_COLUMNS = [("species", "categorical"), ("island", "categorical"), ("bill_length_mm", "numeric"),
                   ("bill_depth_mm", "numeric"), ("flipper_length_mm", "numeric"), ("body_mass_g", "numeric"),
                   ("sex", "categorical"), ("year", "categorical")]


def split_of(data_job, path, csv_format):
    ctx, _, _ = data_job("split", {"dataset": str(path), "datasetFormat": csv_format, "snapshotSha256": sha256_file(path),
                                   "target": "species", "task": "multiclass", "strategy": "random", "seed": 1})
    return ctx.output_dir


@pytest.fixture
def penguins_split(data_job, tabular_fixtures, csv_format):
    path = tabular_fixtures / "penguins.csv"
    return path, split_of(data_job, path, csv_format)


@pytest.fixture
def reference(job_context, csv_format):
    """reference(path, split_dir, columns, **options) -> (reference.json, metrics, ctx)"""

    def run(path, split_dir, columns, **options):
        ctx = job_context()
        metrics = reference_job(ctx, {"dataset": str(path), "datasetFormat": csv_format, "split": str(split_dir),
                                      "columns": [{"name": n, "kind": k} for n, k in columns], **options})
        return json.loads((ctx.output_dir / "reference.json").read_text()), metrics, ctx

    return run


def partition_rows(path, split_dir, name):
    partition = pd.read_csv(split_dir / "partition.csv")
    return pd.read_csv(path).loc[(partition["partition"] == name).to_numpy()]


def test_numeric_bins_are_the_partition_quantiles_and_count_each_value_once(reference, penguins_split):
    path, split_dir = penguins_split
    out, _, _ = reference(path, split_dir, [("bill_length_mm", "numeric")], partition="validation", bins=7)
    values = partition_rows(path, split_dir, "validation")["bill_length_mm"]
    present = values.dropna().to_numpy()
    edges = np.unique(np.quantile(present, [i / 7 for i in range(1, 7)]))
    # Bin i holds the values at most edges[i] and above edges[i - 1]; the last bin the rest.
    expected = [sum(1 for v in present if next((i for i, e in enumerate(edges) if v <= e), len(edges)) == b)
                for b in range(len(edges) + 1)]
    column = out["columns"][0]
    assert column["name"] == "bill_length_mm" and column["kind"] == "numeric"
    assert column["edges"] == pytest.approx(edges.tolist()) and len(column["edges"]) == 6
    assert all(a < b for a, b in zip(column["edges"], column["edges"][1:]))
    assert column["counts"] == expected + [int(values.isna().sum())]
    assert out["partition"] == "validation" and out["rows"] == len(values)


def test_defaults_are_the_train_partition_and_ten_bins(reference, penguins_split):
    path, split_dir = penguins_split
    out, metrics, ctx = reference(path, split_dir, [("body_mass_g", "numeric")])
    train = partition_rows(path, split_dir, "train")
    assert out["partition"] == "train" and out["rows"] == len(train) == json.loads(
        (split_dir / "split.json").read_text())["counts"]["train"]
    assert len(out["columns"][0]["edges"]) <= 9 and len(out["columns"][0]["counts"]) == len(out["columns"][0]["edges"]) + 2
    assert metrics == {"rows": len(train), "columns": 1, "partition": "train"}
    events = [json.loads(line) for line in ctx.events_file.read_text().splitlines()]
    assert any(e["type"] == "phase" and e["phase"] == "preparing_data" and e["step"] == "reference" for e in events)


def test_categorical_keeps_the_most_common_and_counts_other_and_missing(reference, penguins_split):
    path, split_dir = penguins_split
    out, _, _ = reference(path, split_dir, [("sex", "categorical"), ("island", "categorical")], maxCategories=1)
    train = partition_rows(path, split_dir, "train")
    for column, name in zip(out["columns"], ["sex", "island"]):
        tally = train[name].value_counts()
        top = sorted(tally.items(), key=lambda item: (-item[1], item[0]))[0]
        assert column["categories"] == [top[0]]
        assert column["counts"] == [top[1], int(tally.sum()) - top[1], int(train[name].isna().sum())]
    assert out["columns"][0]["counts"][2] > 0  # penguins has rows without a sex: they are missing, not other


def test_categories_are_ordered_by_count_then_value(reference, penguins_split):
    path, split_dir = penguins_split
    out, _, _ = reference(path, split_dir, [("species", "categorical")])
    tally = partition_rows(path, split_dir, "train")["species"].value_counts()
    assert out["columns"][0]["categories"] == sorted(tally.index, key=lambda v: (-tally[v], v))
    assert out["columns"][0]["counts"] == [int(tally[v]) for v in out["columns"][0]["categories"]] + [0, 0]


def test_canonical_text_of_bools_and_integral_floats(reference, data_job, tabular_fixtures, tmp_path, csv_format):
    penguins = pd.read_csv(tabular_fixtures / "penguins.csv")
    # A real boolean column (missing where sex is) and flipper length, read back as float for its NAs.
    penguins["is_male"] = penguins["sex"].map({"male": True, "female": False})
    path = tmp_path / "penguins_bool.csv"
    penguins.to_csv(path, index=False)
    split_dir = split_of(data_job, path, csv_format)
    out, _, _ = reference(path, split_dir, [("is_male", "categorical"), ("flipper_length_mm", "categorical")],
                          maxCategories=200)
    train = partition_rows(path, split_dir, "train")
    assert train["flipper_length_mm"].dtype == np.float64
    is_male, flipper = out["columns"]
    assert sorted(is_male["categories"]) == ["false", "true"]
    assert is_male["counts"][-2:] == [0, int(train["is_male"].isna().sum())]
    lengths = train["flipper_length_mm"].dropna().astype(int).astype(str).value_counts()
    assert dict(zip(flipper["categories"], flipper["counts"])) == lengths.to_dict()
    assert all("." not in c for c in flipper["categories"])


@pytest.mark.parametrize(("value", "text"), [(3.0, "3"), (0.5, "0.5"), (-2.0, "-2"), (-0.0, "0"), (1e21, "1e+21"),
                                             (1e20, "100000000000000000000"), (1.5e-7, "1.5e-7"), (1e-6, "0.000001"),
                                             (0.1 + 0.2, "0.30000000000000004"), (float("inf"), "Infinity"),
                                             (np.int64(2007), "2007"), (np.bool_(True), "true"), (False, "false"),
                                             ("Adelie", "Adelie"), (None, None), (float("nan"), None), (pd.NA, None)])
def test_canonical_text_is_what_javascript_string_writes(value, text):
    assert canonical_text(value) == text


def test_an_all_missing_numeric_column_has_no_edges(reference, data_job, tabular_fixtures, tmp_path, csv_format):
    penguins = pd.read_csv(tabular_fixtures / "penguins.csv")
    penguins["unmeasured"] = ["n/a"] * len(penguins)  # text that does not parse counts as missing too
    path = tmp_path / "penguins_unmeasured.csv"
    penguins.to_csv(path, index=False)
    split_dir = split_of(data_job, path, csv_format)
    out, _, _ = reference(path, split_dir, [("unmeasured", "numeric")])
    assert out["columns"][0]["edges"] == [] and out["columns"][0]["counts"] == [0, out["rows"]]


def test_unknown_column_is_refused_by_name(reference, penguins_split):
    path, split_dir = penguins_split
    with pytest.raises(BadInput) as caught:
        reference(path, split_dir, [("species", "categorical"), ("wingspan", "numeric")])
    assert caught.value.code == "unknown_column" and "wingspan" in caught.value.message
    assert caught.value.details == {"field": "columns[1].name", "column": "wingspan"}


@pytest.mark.parametrize("options", [{"bins": 1}, {"bins": 51}, {"maxCategories": 0}, {"partition": "excluded"}])
def test_out_of_range_options_are_refused(reference, penguins_split, options):
    path, split_dir = penguins_split
    with pytest.raises(BadInput) as caught:
        reference(path, split_dir, [("species", "categorical")], **options)
    assert caught.value.code == "invalid_input"


def test_counts_sum_to_the_partition_rows_for_every_column(reference, penguins_split):
    path, split_dir = penguins_split
    for partition in ("train", "test"):
        out, _, _ = reference(path, split_dir, PENGUIN_COLUMNS, partition=partition, bins=5, maxCategories=2)
        assert [c["name"] for c in out["columns"]] == [n for n, _ in PENGUIN_COLUMNS]
        for column in out["columns"]:
            assert sum(column["counts"]) == out["rows"], column["name"]
            width = len(column["edges"]) if column["kind"] == "numeric" else len(column["categories"])
            assert len(column["counts"]) == width + 2, column["name"]


def test_reference_runs_in_the_data_environment(run_job, reference, penguins_split, csv_format, tmp_path):
    path, split_dir = penguins_split
    job_input = {"dataset": str(path), "datasetFormat": csv_format, "split": str(split_dir / "split.json"),
                 "columns": [{"name": n, "kind": k} for n, k in PENGUIN_COLUMNS], "bins": 4}
    result = run_job("data", "reference", job_input, tmp_path)
    assert result.returncode == 0, result.describe()
    assert [f["path"] for f in result.manifest["files"]] == ["reference.json"]
    assert any(e.get("phase") == "preparing_data" for e in result.events)
    in_process, _, _ = reference(path, split_dir, PENGUIN_COLUMNS, bins=4)
    assert result.output_json("reference.json") == in_process
    refused = run_job("data", "reference", {**job_input, "columns": [{"name": "wingspan", "kind": "numeric"}]}, tmp_path)
    assert refused.returncode == 2 and refused.report["error"]["code"] == "unknown_column"
