"""data.split invariants on real tables: every row assigned once, duplicates and missing
targets excluded, stratification within 2 percentage points, groups never on two sides,
validation and test strictly later than training."""

import pandas as pd
import pytest

from trainyard_recipe.errors import BadInput
from trainyard_recipe.hashing import sha256_file

PARTS = ("train", "validation", "test")


def split(data_job, path, csv_format, **fields):
    job_input = {"dataset": str(path), "datasetFormat": csv_format, "snapshotSha256": sha256_file(path),
                 "seed": 7, **fields}
    ctx, out, _ = data_job("split", job_input)
    partition = pd.read_csv(ctx.output_dir / "partition.csv")
    return out["split.json"], partition, ctx


def test_random_split_is_stratified_within_two_points(data_job, tabular_fixtures, csv_format):
    path = tabular_fixtures / "seattle_weather.csv"
    contract, partition, ctx = split(data_job, path, csv_format, target="weather", task="multiclass", strategy="random")
    data = pd.read_csv(path)
    assert list(partition.columns) == ["row_id", "partition"] and list(partition["row_id"]) == list(range(len(data)))
    whole = data["weather"].value_counts(normalize=True)
    for part in PARTS:
        share = data.loc[partition["partition"] == part, "weather"].value_counts(normalize=True)
        for cls, expected in whole.items():
            assert abs(share.get(cls, 0) - expected) <= 0.02, (part, cls, share.get(cls, 0), expected)
    counts = contract["counts"]
    assert counts["excluded"] == 0 and sum(counts.values()) == 1461
    for part, fraction in {"train": 0.7, "validation": 0.15, "test": 0.15}.items():
        assert abs(counts[part] - 1461 * fraction) <= 5  # per-class rounding moves a row or so per class
    assert contract["partitionSha256"] == sha256_file(ctx.output_dir / "partition.csv")
    assert contract["snapshotSha256"] == sha256_file(path) and contract["seed"] == 7
    assert contract["dedup"] == "exact_duplicates_first_kept" and contract["fractions"]["train"] == 0.7


def test_same_seed_same_partition_other_seed_other_partition(data_job, tabular_fixtures, csv_format):
    path = tabular_fixtures / "penguins.csv"
    first, _, _ = split(data_job, path, csv_format, target="species", task="multiclass", strategy="random")
    again, _, _ = split(data_job, path, csv_format, target="species", task="multiclass", strategy="random")
    other, _, _ = split(data_job, path, csv_format, target="species", task="multiclass", strategy="random", seed=8)
    assert first["partitionSha256"] == again["partitionSha256"] != other["partitionSha256"]


def test_exact_duplicates_are_excluded_after_the_first(data_job, tabular_fixtures, csv_format):
    path = tabular_fixtures / "diamonds.csv"
    contract, partition, _ = split(data_job, path, csv_format, target="price", task="regression", strategy="random")
    data = pd.read_csv(path)
    assert contract["counts"]["excluded"] == 146 == contract["excludedReasons"]["duplicate"]
    kept = data[partition["partition"] != "excluded"]
    assert not kept.duplicated().any()  # so no row content can sit in two partitions
    first_of_each = data.duplicated(keep="first")
    assert (partition.loc[first_of_each, "partition"] == "excluded").all()
    assert sum(contract["counts"].values()) == len(data)


def test_rows_without_a_target_are_excluded(data_job, tabular_fixtures, csv_format):
    contract, partition, _ = split(data_job, tabular_fixtures / "penguins.csv", csv_format, target="sex",
                                   task="binary", strategy="random")
    data = pd.read_csv(tabular_fixtures / "penguins.csv")
    assert (partition.loc[data["sex"].isna(), "partition"] == "excluded").all()
    assert contract["excludedReasons"]["missingTarget"] == 11


def test_group_split_never_puts_a_group_on_two_sides(data_job, derived, csv_format):
    path = derived / "seattle_weeks.csv"
    contract, partition, _ = split(data_job, path, csv_format, target="weather", task="multiclass",
                                   strategy="group", groupColumn="week_id")
    data = pd.read_csv(path)
    sides = data.assign(part=partition["partition"]).groupby("week_id")["part"].nunique()
    assert (sides == 1).all()
    counts = contract["counts"]
    assert contract["groupColumn"] == "week_id"
    assert abs(counts["train"] / len(data) - 0.7) < 0.03 and counts["test"] > 150


def test_group_split_needs_three_groups(data_job, tabular_fixtures, tmp_path, csv_format):
    data = pd.read_csv(tabular_fixtures / "penguins.csv")
    path = tmp_path / "two_islands.csv"
    data[data["island"] != "Torgersen"].to_csv(path, index=False)
    with pytest.raises(BadInput) as caught:
        split(data_job, path, csv_format, target="species", task="multiclass", strategy="group", groupColumn="island")
    assert caught.value.code == "too_few_groups"


def test_time_split_puts_only_later_rows_after_training(data_job, tabular_fixtures, csv_format):
    path = tabular_fixtures / "seattle_weather.csv"
    contract, partition, _ = split(data_job, path, csv_format, target="weather", task="multiclass",
                                   strategy="time", timeColumn="date")
    dates = pd.to_datetime(pd.read_csv(path)["date"])
    train_max = dates[partition["partition"] == "train"].max()
    assert dates[partition["partition"] == "validation"].min() > train_max
    assert dates[partition["partition"] == "test"].min() > dates[partition["partition"] == "validation"].max()
    assert contract["cutoff"] == train_max.isoformat() and contract["timeColumn"] == "date"


def test_time_split_keeps_equal_times_on_one_side(data_job, tabular_fixtures, tmp_path, csv_format):
    data = pd.read_csv(tabular_fixtures / "seattle_weather.csv")
    data["month"] = data["date"].str[:7]  # 48 months, 28-31 rows sharing each time value
    data = data.sample(frac=1, random_state=3)  # unsorted, like taxis
    path = tmp_path / "months.csv"
    data.to_csv(path, index=False)
    _, partition, _ = split(data_job, path, csv_format, target="temp_max", task="regression",
                            strategy="time", timeColumn="month")
    month = pd.read_csv(path)["month"]
    assert month[partition["partition"] == "train"].max() < month[partition["partition"] == "validation"].min()
    assert (month.groupby(partition["partition"].to_numpy()).nunique().sum()) == month.nunique()


def test_a_dataset_that_is_not_the_named_snapshot_is_refused(data_job, tabular_fixtures, csv_format):
    path = tabular_fixtures / "penguins.csv"
    with pytest.raises(BadInput) as caught:
        data_job("split", {"dataset": str(path), "datasetFormat": csv_format, "snapshotSha256": "0" * 64,
                           "target": "species", "task": "multiclass", "strategy": "random"})
    assert caught.value.code == "snapshot_mismatch"


def test_rows_of_a_reserved_holdout_are_kept_out_and_the_trained_rows_are_listed(data_job, tabular_fixtures, tmp_path, csv_format):
    from trainyard_recipe.row_hashes import read_rows_file, row_hashes

    path = tabular_fixtures / "penguins.csv"
    data = pd.read_csv(path)
    # The holdout: 20 rows of the data, reformatted as a person might (columns reordered,
    # numbers written differently, text in other case), plus 5 rows the data does not have.
    picked = data.iloc[:20].copy()
    picked["island"] = picked["island"].str.upper()
    picked = picked[list(reversed(picked.columns))]
    novel = data.iloc[20:25].copy()
    novel["body_mass_g"] = novel["body_mass_g"] + 0.5
    holdout = tmp_path / "holdout.csv"
    pd.concat([picked, novel]).to_csv(holdout, index=False, float_format="%.3f")
    contract, partition, ctx = split(data_job, path, csv_format, target="species", task="multiclass",
                                     strategy="random", holdouts=[{"dataset": str(holdout), "datasetFormat": csv_format}])
    duplicates_among_picked = int(data.duplicated().iloc[:20].sum())
    assert contract["excludedReasons"]["holdout"] == 20 - duplicates_among_picked
    assert (partition.loc[:19, "partition"] == "excluded").all()
    assert contract["holdouts"] == [{"sha256": sha256_file(holdout), "columns": len(data.columns),
                                     "sameRows": 20, "sameGroup": 0, "notBefore": 0}]
    columns, trained = read_rows_file(ctx.output_dir / contract["trainedRowsFile"])
    assert columns == sorted(data.columns) and contract["trainedRowsSha256"] == sha256_file(ctx.output_dir / "trained_rows.txt")
    used = partition["partition"] != "excluded"
    assert trained == set(pd.Series(row_hashes(data, data.columns))[used.to_numpy()])
    assert not trained & set(row_hashes(pd.read_csv(holdout), data.columns)[:20])


def test_a_time_holdout_keeps_out_every_row_from_its_first_time(data_job, tabular_fixtures, tmp_path, csv_format):
    path = tabular_fixtures / "seattle_weather.csv"
    data = pd.read_csv(path)
    holdout = tmp_path / "newest.csv"
    data[data["date"] >= "2015-07-01"].to_csv(holdout, index=False)
    contract, partition, _ = split(data_job, path, csv_format, target="weather", task="multiclass", strategy="time",
                                   timeColumn="date", holdouts=[{"dataset": str(holdout), "datasetFormat": csv_format}])
    later = (data["date"] >= "2015-07-01").to_numpy()
    assert (partition.loc[later, "partition"] == "excluded").all()
    assert contract["excludedReasons"]["holdout"] == int(later.sum())
    assert contract["cutoff"] < "2015-07-01"


def test_a_group_holdout_keeps_out_its_groups(data_job, derived, tmp_path, csv_format):
    path = derived / "seattle_weeks.csv"
    data = pd.read_csv(path)
    # Three days of each of two weeks: the other days of those weeks must not be trained on either.
    holdout = tmp_path / "weeks.csv"
    data[data["week_id"].isin(["w0010", "w0020"])].groupby("week_id").head(3).to_csv(holdout, index=False)
    contract, partition, _ = split(data_job, path, csv_format, target="weather", task="multiclass", strategy="group",
                                   groupColumn="week_id", holdouts=[{"dataset": str(holdout), "datasetFormat": csv_format}])
    in_weeks = data["week_id"].isin(["w0010", "w0020"]).to_numpy()
    assert (partition.loc[in_weeks, "partition"] == "excluded").all()
    assert contract["holdouts"][0]["sameRows"] == 6 and contract["holdouts"][0]["sameGroup"] == int(in_weeks.sum()) - 6
