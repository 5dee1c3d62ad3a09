"""tabular.train / tabular.predict on real data, run as real subprocesses in the recipe env."""

from __future__ import annotations

import os
import shutil
import stat

import pandas as pd
import pytest
from trainyard_recipe import class_key

from recipes.tabular.tests import pipeline
from recipes.tabular.tests.pipeline import run


@pytest.fixture(scope="session")
def penguins(tmp_path_factory):
    return pipeline.get("penguins", tmp_path_factory)


@pytest.fixture(scope="session")
def penguins_sex(tmp_path_factory):
    return pipeline.get("penguins_sex", tmp_path_factory)


@pytest.fixture(scope="session")
def diamonds(tmp_path_factory):
    return pipeline.get("diamonds", tmp_path_factory)


def test_multiclass_candidate_beats_baseline_by_the_receipts(penguins):
    receipt, base = penguins.receipt(), penguins.baseline_receipt()
    assert receipt["contractSha256"] == base["contractSha256"]
    assert receipt["primaryMetric"] == "accuracy" and receipt["direction"] == "higher_is_better"
    assert receipt["metrics"]["accuracy"] > 0.9, receipt["metrics"]
    assert base["metrics"]["accuracy"] < 0.6
    assert receipt["metrics"]["log_loss"] < base["metrics"]["log_loss"]
    test_rows = pipeline.read_json(penguins.split_dir / "split.json")["counts"]["test"]
    assert sum(map(sum, receipt["confusionMatrix"]["matrix"])) == receipt["rows"] == test_rows


def test_train_writes_every_output_and_reports_each_model(penguins):
    out = penguins.model_dir
    for name in ("predictor", "feature_schema.json", "leaderboard.json", "environment.lock", "training.json",
                 "requirements.txt", "manifest.json"):
        assert (out / name).exists(), name
    training = penguins.train.output_json("training.json")
    assert training["task"] == "multiclass" and training["classLabels"] == ["Adelie", "Chinstrap", "Gentoo"]
    assert training["timeLimitSeconds"] == 30 and training["wallSeconds"] < 30
    assert training["autogluonVersion"].startswith("1.6.")
    leaderboard = penguins.train.output_json("leaderboard.json")["models"]
    assert training["bestModel"] in [m["model"] for m in leaderboard]
    metric_models = {e["model"] for e in penguins.train.events if e["type"] == "metric"}
    assert {m["model"] for m in leaderboard} <= metric_models
    phases = [e["phase"] for e in penguins.train.events if e["type"] == "phase"]
    assert phases == ["preparing_data", "training", "exporting"]
    schema = penguins.train.output_json("feature_schema.json")
    names = [f["name"] for f in schema["features"]]
    assert "species" not in names and names[0] == "island"
    island = schema["features"][0]
    assert island["kind"] == "categorical" and set(island["categories"]) == {"Biscoe", "Dream", "Torgersen"}
    bill = next(f for f in schema["features"] if f["name"] == "bill_length_mm")
    assert bill["kind"] == "numeric" and 30 < bill["min"] < bill["max"] < 61
    lock = (out / "environment.lock").read_text()
    assert lock.startswith("# python 3.") and "autogluon.tabular==1.6." in lock
    listed = {f["path"] for f in penguins.train.manifest["files"]}
    assert "predictor/predictor.pkl" in listed and "training.json" in listed
    # only the best model (and what it needs) is kept in the exported predictor
    kept = {p.name for p in (out / "predictor" / "models").iterdir() if p.is_dir()}
    assert len(kept) < len(leaderboard)


def test_train_never_uses_test_rows(penguins):
    """Model selection happens on validation only: the test row ids appear in no train output."""
    training = penguins.train.output_json("training.json")
    counts = pipeline.read_json(penguins.split_dir / "split.json")["counts"]
    assert training["trainRows"] == counts["train"] and training["validationRows"] == counts["validation"]


def test_binary_task_uses_the_minority_positive_class(penguins_sex):
    training = penguins_sex.train.output_json("training.json")
    receipt, base = penguins_sex.receipt(), penguins_sex.baseline_receipt()
    labels = pd.read_parquet(penguins_sex.partitions["train"] / "labels.parquet")["label"]
    assert labels.dtype == "float64"  # classes 0.0 / 1.0: named "0" / "1" everywhere
    counts = labels.value_counts()
    assert counts.min() < counts.max()  # a tie would make this test meaningless
    assert training["positiveClass"] == class_key(counts.idxmin()) == receipt["positiveClass"]
    # AutoGluon orders binary classes negative first, positive last
    assert sorted(training["classLabels"]) == ["0", "1"] and training["classLabels"][-1] == training["positiveClass"]
    assert receipt["classes"] == training["classLabels"]
    assert receipt["primaryMetric"] == "roc_auc"
    assert receipt["metrics"]["roc_auc"] > 0.85 and base["metrics"]["roc_auc"] == pytest.approx(0.5)
    predictions = pd.read_parquet(penguins_sex.predict.output_dir / "predictions.parquet")
    assert sorted(predictions.columns) == ["prediction", "proba::0", "proba::1", "row_id"]


def test_regression_beats_the_mean(diamonds):
    receipt, base = diamonds.receipt(), diamonds.baseline_receipt()
    assert receipt["direction"] == "lower_is_better"
    assert receipt["metrics"]["rmse"] < 0.5 * base["metrics"]["rmse"], (receipt["metrics"], base["metrics"])
    assert receipt["metrics"]["r2"] > 0.8
    assert len(receipt["residuals"]["sample"]) == min(200, receipt["rows"])
    training = diamonds.train.output_json("training.json")
    assert training["wallSeconds"] < training["timeLimitSeconds"] == 40


def test_predict_works_from_a_read_only_model_folder(penguins, tmp_path):
    frozen = tmp_path / "frozen-model"
    shutil.copytree(penguins.model_dir, frozen)
    for root, dirs, files in os.walk(frozen):
        for name in files:
            os.chmod(os.path.join(root, name), 0o444)
    for root, dirs, files in os.walk(frozen, topdown=False):
        os.chmod(root, 0o555)
    try:
        result = run("tabular", "predict", {"model": str(frozen), "features": str(penguins.partitions["test"])},
                     tmp_path)
        again = pd.read_parquet(result.output_dir / "predictions.parquet")
        first = pd.read_parquet(penguins.predict.output_dir / "predictions.parquet")
        pd.testing.assert_frame_equal(again, first)
        # a root user ignores file modes: make sure nothing was written anyway
        assert sorted(p.relative_to(frozen).as_posix() for p in frozen.rglob("*")) == sorted(
            p.relative_to(penguins.model_dir).as_posix() for p in penguins.model_dir.rglob("*"))
    finally:
        for root, dirs, files in os.walk(frozen):
            os.chmod(root, stat.S_IRWXU)


def test_predict_refuses_rows_that_do_not_match_the_schema(penguins, tmp_path, run_job):
    features = pd.read_parquet(penguins.partitions["test"] / "features.parquet")
    broken = features.drop(columns=["island"]).assign(body_mass_g="heavy")
    broken.to_parquet(tmp_path / "features.parquet", index=False)
    result = run_job("tabular", "predict", {"model": str(penguins.model_dir), "features": str(tmp_path)}, tmp_path)
    assert result.returncode == 2, result.describe()
    error = result.report["error"]
    assert error["code"] == "schema_mismatch"
    assert "island" in error["message"] and "body_mass_g" in error["message"]
    assert not (result.output_dir / "predictions.parquet").exists()


def test_predict_accepts_a_csv_of_new_rows(penguins, tmp_path, run_job):
    rows = pd.read_csv(penguins.dataset).drop(columns=["species"]).head(5)
    rows.to_csv(tmp_path / "rows.csv", index=False)
    result = run_job("tabular", "predict", {"model": str(penguins.model_dir), "features": str(tmp_path / "rows.csv"),
                                            "datasetFormat": pipeline.CSV_FORMAT}, tmp_path)
    assert result.returncode == 0, result.describe()
    predictions = pd.read_parquet(result.output_dir / "predictions.parquet")
    assert predictions["row_id"].tolist() == [0, 1, 2, 3, 4]
    assert set(predictions["prediction"]) <= {"Adelie", "Chinstrap", "Gentoo"}


def test_predict_times_single_row_predictions_when_asked(penguins, tmp_path, run_job):
    """latency.json: what a policy's latency limit compares; the predictions are the batch's."""
    rows = pd.read_csv(penguins.dataset).drop(columns=["species"]).head(3)
    rows.to_csv(tmp_path / "rows.csv", index=False)
    asked = {"model": str(penguins.model_dir), "features": str(tmp_path / "rows.csv"), "datasetFormat": pipeline.CSV_FORMAT}
    result = run_job("tabular", "predict", {**asked, "latencyRows": 7}, tmp_path)
    assert result.returncode == 0, result.describe()
    latency = result.output_json("latency.json")
    assert latency["version"] == 1 and latency["rows"] == 7  # three rows, taken in turn
    assert 0 < latency["medianMs"] <= latency["p95Ms"] < 10_000, latency
    assert "latency.json" in {f["path"] for f in result.manifest["files"]}
    assert len(pd.read_parquet(result.output_dir / "predictions.parquet")) == 3

    plain = run_job("tabular", "predict", asked, tmp_path / "plain")
    assert plain.returncode == 0 and not (plain.output_dir / "latency.json").exists(), plain.describe()
    refused = run_job("tabular", "predict", {**asked, "latencyRows": 0}, tmp_path / "zero")
    assert refused.returncode == 2 and refused.report["error"]["code"] == "invalid_input", refused.describe()


def test_predict_writes_each_row_of_a_file_beside_its_own_prediction(penguins, tmp_path, run_job):
    """joined.csv (the "Predict a file" download) pairs rows by the row ids the job read, so
    a byte order mark, blank lines and a quoted line break shift nothing."""
    rows = pd.read_csv(penguins.dataset).drop(columns=["species"]).head(4)
    rows.loc[1, "sex"] = "ma\nle"  # an unseen category that spans two physical lines
    header = ",".join(rows.columns) + "\n"
    records = [rows.iloc[[i]].to_csv(index=False, header=False, lineterminator="\n") for i in range(len(rows))]
    (tmp_path / "rows.csv").write_text("\ufeff" + header + "\n" + "".join(records[:2]) + "\n\n" + "".join(records[2:]),
                                       encoding="utf-8")
    result = run_job("tabular", "predict", {"model": str(penguins.model_dir), "features": str(tmp_path / "rows.csv"),
                                            "datasetFormat": pipeline.CSV_FORMAT}, tmp_path)
    assert result.returncode == 0, result.describe()
    predictions = pd.read_parquet(result.output_dir / "predictions.parquet")
    joined = pd.read_csv(result.output_dir / "joined.csv", dtype=str, keep_default_na=False)
    assert list(joined.columns) == [*rows.columns, "prediction", "proba::Adelie", "proba::Chinstrap", "proba::Gentoo"]
    assert joined["sex"].tolist() == rows["sex"].fillna("").tolist()
    assert joined["bill_length_mm"].tolist() == [f"{v}" if v == v else "" for v in rows["bill_length_mm"]]
    by_row = predictions.sort_values("row_id")
    assert joined["prediction"].tolist() == by_row["prediction"].tolist()
    assert joined["proba::Gentoo"].astype(float).tolist() == by_row["proba::Gentoo"].tolist()
    listed = {f["path"] for f in result.manifest["files"]}
    assert "joined.csv" in listed


def test_train_refuses_a_split_made_for_another_snapshot(penguins, tmp_path, run_job):
    other = tmp_path / "penguins-edited.csv"
    other.write_bytes(penguins.dataset.read_bytes() + b"Adelie,Dream,40.0,18.0,190,3800,male,2009\n")
    payload = {**penguins.train_input, "dataset": str(other)}
    result = run_job("tabular", "train", payload, tmp_path)
    assert result.returncode == 2 and result.report["error"]["code"] == "split_mismatch", result.describe()
