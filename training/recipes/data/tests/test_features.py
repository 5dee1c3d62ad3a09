"""data.features: one partition's features without the target, labels apart, joined by row_id."""

import pandas as pd
import pytest

from trainyard_recipe.errors import BadInput
from trainyard_recipe.hashing import sha256_file


@pytest.fixture
def penguins_split(data_job, tabular_fixtures, csv_format):
    path = tabular_fixtures / "penguins.csv"
    ctx, _, _ = data_job("split", {"dataset": str(path), "datasetFormat": csv_format, "snapshotSha256": sha256_file(path),
                                   "target": "species", "task": "multiclass", "strategy": "random", "seed": 1})
    return path, ctx.output_dir


@pytest.mark.parametrize("split_form", ["folder", "split.json", "partition.csv"])
def test_features_hold_the_partition_rows_without_target(split_form, data_job, penguins_split, csv_format):
    path, split_dir = penguins_split
    split_ref = split_dir if split_form == "folder" else split_dir / split_form
    ctx, _, metrics = data_job("features", {"dataset": str(path), "datasetFormat": csv_format, "split": str(split_ref),
                                            "partition": "test", "target": "species", "excludeColumns": ["year"]})
    features = pd.read_parquet(ctx.output_dir / "features.parquet")
    labels = pd.read_parquet(ctx.output_dir / "labels.parquet")
    partition = pd.read_csv(split_dir / "partition.csv")
    expected_ids = partition.loc[partition["partition"] == "test", "row_id"].tolist()
    assert features["row_id"].tolist() == expected_ids == labels["row_id"].tolist()
    assert list(features.columns) == ["row_id", "island", "bill_length_mm", "bill_depth_mm", "flipper_length_mm",
                                      "body_mass_g", "sex"]
    data = pd.read_csv(path)
    assert labels["label"].tolist() == data.loc[expected_ids, "species"].tolist()
    assert features["bill_length_mm"].tolist() == pytest.approx(data.loc[expected_ids, "bill_length_mm"].tolist(),
                                                                nan_ok=True)
    assert metrics == {"rows": len(expected_ids), "featureColumns": 6, "partition": "test"}


def test_target_defaults_to_the_split_target(data_job, penguins_split, csv_format):
    path, split_dir = penguins_split
    ctx, _, _ = data_job("features", {"dataset": str(path), "datasetFormat": csv_format, "split": str(split_dir),
                                      "partition": "train"})
    assert "species" not in pd.read_parquet(ctx.output_dir / "features.parquet").columns


def test_features_refuse_a_dataset_the_split_was_not_made_on(data_job, penguins_split, tabular_fixtures, csv_format):
    _, split_dir = penguins_split
    with pytest.raises(BadInput) as caught:
        data_job("features", {"dataset": str(tabular_fixtures / "seattle_weather.csv"), "datasetFormat": csv_format,
                              "split": str(split_dir), "partition": "train", "target": "weather"})
    assert caught.value.code == "split_mismatch"


def test_unknown_excluded_column_is_refused(data_job, penguins_split, csv_format):
    path, split_dir = penguins_split
    with pytest.raises(BadInput) as caught:
        data_job("features", {"dataset": str(path), "datasetFormat": csv_format, "split": str(split_dir),
                              "partition": "train", "excludeColumns": ["wingspan"]})
    assert caught.value.code == "unknown_column"


def test_a_one_column_file_is_refused_with_the_reason_not_a_pandas_error(data_job, tabular_fixtures, csv_format):
    path = tabular_fixtures / "one-column.csv"
    split_ctx, _, _ = data_job("split", {"dataset": str(path), "datasetFormat": csv_format,
                                         "snapshotSha256": sha256_file(path), "target": "body_mass_g",
                                         "task": "regression", "strategy": "random"})
    with pytest.raises(BadInput) as caught:
        data_job("features", {"dataset": str(path), "datasetFormat": csv_format, "split": str(split_ctx.output_dir),
                              "partition": "test"})
    assert caught.value.code == "no_feature_columns"
    assert "body_mass_g is the only column" in str(caught.value)
