"""data.newest_rows: the newest rows by time, ties together, written cell for cell; and a
time split afterwards keeps every one of them out of training."""

import json

import pandas as pd
import pytest

from trainyard_recipe.errors import BadInput
from trainyard_recipe.hashing import sha256_file
from trainyard_recipe.row_hashes import row_hashes


def newest(data_job, path, fmt, **fields):
    ctx, _, out = data_job("newest_rows", {"dataset": str(path), "datasetFormat": fmt, "timeColumn": "date", **fields})
    return ctx, out


def test_holds_out_the_newest_tenth_by_date_written_as_the_file_has_it(data_job, tabular_fixtures, csv_format):
    path = tabular_fixtures / "seattle_weather.csv"
    ctx, out = newest(data_job, path, csv_format)
    data = pd.read_csv(path)
    held = pd.read_csv(ctx.output_dir / "holdout.csv")
    assert out == {"version": 1, "file": "holdout.csv", "rows": 147, "of": 1461, "from": "2015-08-07T00:00:00"}
    assert json.loads((ctx.output_dir / "newest.json").read_text(encoding="utf-8")) == out
    assert len(held) == 147 and held["date"].min() == "2015-08-07" and held["date"].max() == data["date"].max()
    assert (data["date"] < "2015-08-07").sum() == 1461 - 147  # every older row stays with the data
    # Cell for cell: the written lines are the file's own lines.
    lines = path.read_text(encoding="utf-8").splitlines()
    assert (ctx.output_dir / "holdout.csv").read_text(encoding="utf-8").splitlines() == [lines[0], *lines[-147:]]


def test_rows_that_share_the_cut_time_are_held_out_together(data_job, tmp_path, csv_format):
    path = tmp_path / "ties.csv"
    dates = ["2024-01-01"] * 4 + ["2024-01-02"] * 3 + ["2024-01-03"] * 3
    pd.DataFrame({"date": dates, "x": range(10), "y": [0, 1] * 5}).to_csv(path, index=False)
    ctx, out = newest(data_job, path, csv_format, fraction=0.2)  # two rows asked; the cut falls inside 2024-01-03
    assert out["rows"] == 3 and out["from"] == "2024-01-03T00:00:00"
    ctx, out = newest(data_job, path, csv_format, fraction=0.5)  # five asked: all of 2024-01-02 comes too
    assert out["rows"] == 6 and pd.read_csv(ctx.output_dir / "holdout.csv")["x"].tolist() == [4, 5, 6, 7, 8, 9]


def test_a_later_time_split_trains_on_none_of_its_rows(data_job, tabular_fixtures, csv_format):
    path = tabular_fixtures / "seattle_weather.csv"
    ctx, out = newest(data_job, path, csv_format, fraction=0.2)
    held = ctx.output_dir / "holdout.csv"
    split_input = {"dataset": str(path), "datasetFormat": csv_format, "snapshotSha256": sha256_file(path), "seed": 7,
                   "target": "weather", "task": "multiclass", "strategy": "time", "timeColumn": "date",
                   "holdouts": [{"dataset": str(held), "datasetFormat": csv_format}]}
    split_ctx, outputs, _ = data_job("split", split_input)
    assert outputs["split.json"]["counts"]["excluded"] >= out["rows"]
    partition = pd.read_csv(split_ctx.output_dir / "partition.csv")
    data = pd.read_csv(path)
    used = data.loc[partition["partition"].isin(["train", "validation", "test"]).to_numpy()]
    assert used["date"].max() < out["from"][:10]
    assert not set(row_hashes(pd.read_csv(held), list(data.columns))) & set(row_hashes(used, list(data.columns)))


@pytest.mark.parametrize("fields, code", [
    ({"timeColumn": "weather"}, "invalid_input"),   # not dates
    ({"timeColumn": "nope"}, "unknown_column"),
    ({"fraction": 0.9}, "invalid_input"),
    ({"fraction": 0}, "invalid_input"),
])
def test_refuses_what_cannot_give_a_holdout(data_job, tabular_fixtures, csv_format, fields, code):
    with pytest.raises(BadInput) as refused:
        newest(data_job, tabular_fixtures / "seattle_weather.csv", csv_format, **fields)
    assert refused.value.code == code


def test_refuses_a_column_with_one_time(data_job, tmp_path, csv_format):
    path = tmp_path / "one-day.csv"
    pd.DataFrame({"date": ["2024-01-01"] * 6, "y": [1, 2, 3, 4, 5, 6]}).to_csv(path, index=False)
    with pytest.raises(BadInput) as refused:
        newest(data_job, path, csv_format)
    assert refused.value.code == "too_few_times"


def test_a_parquet_dataset_gives_a_parquet_holdout(data_job, tabular_fixtures, tmp_path):
    data = pd.read_csv(tabular_fixtures / "seattle_weather.csv", parse_dates=["date"])
    path = tmp_path / "weather.parquet"
    data.to_parquet(path, index=False)
    ctx, out = newest(data_job, path, {"format": "parquet"})
    assert out["file"] == "holdout.parquet" and out["rows"] == 147
    held = pd.read_parquet(ctx.output_dir / "holdout.parquet")
    assert list(held.columns) == list(data.columns) and held["date"].min() == pd.Timestamp("2015-08-07")
    assert not (ctx.output_dir / "holdout.csv").exists()
