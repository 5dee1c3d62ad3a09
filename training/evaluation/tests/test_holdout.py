"""evaluation.holdout_compare (and data.holdout_rows, which prepares its rows) as real
subprocesses: versions scored on the holdout rows none of them learnt from, with a paired
bootstrap interval of their difference."""

from __future__ import annotations

import pandas as pd
import pytest

from trainyard_recipe.row_hashes import row_hashes, write_rows_file

CSV = {"format": "csv", "delimiter": ",", "encoding": "utf-8", "header": True}


@pytest.fixture(scope="module")
def penguins():
    from pathlib import Path

    return pd.read_csv(Path(__file__).resolve().parents[3] / "tests/fixtures/tabular/penguins.csv")


def _predictions(labels: pd.DataFrame, wrong_every: int | None, path):
    predicted = labels["label"].tolist()
    if wrong_every:
        classes = sorted(set(predicted))
        predicted = [classes[(classes.index(v) + 1) % len(classes)] if i % wrong_every == 0 else v
                     for i, v in zip(labels["row_id"], predicted)]
    path.mkdir()
    pd.DataFrame({"row_id": labels["row_id"], "prediction": predicted}).to_parquet(path / "predictions.parquet", index=False)
    return str(path)


def test_versions_are_scored_on_rows_neither_learnt_from_with_a_paired_interval(penguins, tmp_path, run_job):
    holdout = tmp_path / "holdout.csv"
    held = penguins.iloc[::3].iloc[:100]  # all three species
    held.to_csv(holdout, index=False)
    rows = run_job("data", "holdout_rows", {"dataset": str(holdout), "datasetFormat": CSV, "target": "species"}, tmp_path / "rows")
    assert rows.returncode == 0, rows.describe()
    features = pd.read_parquet(rows.output("features.parquet"))
    assert "species" not in features.columns and len(features) == 100  # prediction never sees the labels
    labels = pd.read_parquet(rows.output("labels.parquet"))

    hashes = pd.Series(row_hashes(penguins, penguins.columns))
    rest = hashes.drop(held.index).tolist()
    first_rows, second_rows = tmp_path / "first.txt", tmp_path / "second.txt"
    write_rows_file(first_rows, penguins.columns, rest + hashes[held.index[:10]].tolist())  # it learnt 10 holdout rows
    write_rows_file(second_rows, penguins.columns, rest)
    job = {"holdout": str(holdout), "datasetFormat": CSV, "labels": str(rows.output_dir), "task": "multiclass",
           "metric": "accuracy", "resamples": 500,
           "versions": [{"version": 1, "predictions": _predictions(labels, None, tmp_path / "p1"), "trainedRows": str(first_rows)},
                        {"version": 2, "predictions": _predictions(labels, 4, tmp_path / "p2"), "trainedRows": str(second_rows)}]}
    result = run_job("evaluation", "holdout_compare", job, tmp_path / "compare")
    assert result.returncode == 0, result.describe()
    out = result.output_json("holdout_compare.json")
    assert out["rows"] == 90 and out["excluded"] == {"total": 10, "byVersion": {"1": 10, "2": 0}}
    # Version 2 is wrong on every 4th row; on rows 10..99 that is 22 of 90.
    assert out["results"] == [{"version": 1, "value": 1.0}, {"version": 2, "value": pytest.approx(68 / 90)}]
    diff = out["difference"]
    assert diff["estimate"] == pytest.approx(68 / 90 - 1) and diff["of"] == [1, 2]
    assert diff["low"] < diff["estimate"] < diff["high"] < 0  # a loss, and the interval says so
    assert out["direction"] == "higher_is_better" and diff["resamples"] == 500

    again = run_job("evaluation", "holdout_compare", job, tmp_path / "again")
    assert again.output_json("holdout_compare.json") == out  # seeded: the same answer twice


def test_a_holdout_without_the_columns_a_version_learnt_is_refused(penguins, tmp_path, run_job):
    holdout = tmp_path / "holdout.csv"
    penguins.iloc[:50].drop(columns=["island"]).to_csv(holdout, index=False)
    rows = run_job("data", "holdout_rows", {"dataset": str(holdout), "datasetFormat": CSV, "target": "species"}, tmp_path / "rows")
    labels = pd.read_parquet(rows.output("labels.parquet"))
    trained = tmp_path / "trained.txt"
    write_rows_file(trained, penguins.columns, row_hashes(penguins, penguins.columns))
    versions = [{"version": n, "predictions": _predictions(labels, None, tmp_path / f"p{n}"), "trainedRows": str(trained)} for n in (1, 2)]
    result = run_job("evaluation", "holdout_compare", {"holdout": str(holdout), "datasetFormat": CSV, "labels": str(rows.output_dir),
                                                       "task": "multiclass", "metric": "accuracy", "versions": versions}, tmp_path / "c")
    assert result.returncode != 0
    assert result.report["error"]["code"] == "schema_mismatch" and "island" in result.report["error"]["message"]
