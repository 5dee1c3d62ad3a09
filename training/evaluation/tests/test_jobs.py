"""evaluation.baseline and evaluation.score as real subprocesses in the evaluation env."""

from __future__ import annotations

import ast
import hashlib
import json
from pathlib import Path

import pandas as pd
import pytest

from evaluation.evaluator import canonical_json
from recipes.tabular.tests.split_fixture import make_split, sha256_file, write_partition

EVALUATION_DIR = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def penguins_parts(tmp_path_factory, tabular_fixtures):
    root = tmp_path_factory.mktemp("eval-penguins")
    dataset = tabular_fixtures / "penguins.csv"
    split = make_split(dataset, root / "split", "species", "multiclass", seed=1)
    parts = {p: write_partition(dataset, split, p, "species", root / p) for p in ("train", "test")}
    contract = {"snapshotSha256": sha256_file(dataset), "splitSha256": sha256_file(split / "split.json")}
    return parts, contract


def test_baseline_predicts_the_training_majority_with_training_frequencies(penguins_parts, tmp_path, run_job):
    parts, _ = penguins_parts
    result = run_job("evaluation", "baseline", {"labels": str(parts["train"]), "features": str(parts["test"]),
                                                "task": "multiclass"}, tmp_path)
    assert result.returncode == 0, result.describe()
    predictions = pd.read_parquet(result.output("predictions.parquet"))
    train = pd.read_parquet(parts["train"] / "labels.parquet")["label"].value_counts(normalize=True)
    test_ids = pd.read_parquet(parts["test"] / "features.parquet")["row_id"]
    assert predictions["row_id"].tolist() == test_ids.tolist()
    assert set(predictions["prediction"]) == {train.idxmax()}
    for cls, share in train.items():
        assert predictions[f"proba::{cls}"].iloc[0] == pytest.approx(share)


def test_score_writes_a_receipt_with_the_contract(penguins_parts, tmp_path, run_job):
    parts, contract = penguins_parts
    labels = pd.read_parquet(parts["test"] / "labels.parquet")
    perfect = labels.rename(columns={"label": "prediction"})
    perfect.to_parquet(tmp_path / "predictions.parquet", index=False)
    result = run_job("evaluation", "score", {"predictions": str(tmp_path / "predictions.parquet"),
                                             "labels": str(parts["test"]), "task": "multiclass",
                                             "metric": "balanced_accuracy", "contract": contract}, tmp_path)
    assert result.returncode == 0, result.describe()
    receipt = result.output_json("receipt.json")
    assert receipt["primaryMetric"] == "balanced_accuracy" and receipt["primaryValue"] == 1.0
    assert receipt["direction"] == "higher_is_better" and receipt["rows"] == len(labels)
    assert receipt["metrics"]["roc_auc"] is None  # no probabilities given, and the receipt says so
    contract_obj = receipt["evaluationContract"]
    assert contract_obj["partition"] == "test" and contract_obj["splitSha256"] == contract["splitSha256"]
    assert receipt["contractSha256"] == hashlib.sha256(canonical_json(contract_obj)).hexdigest()
    # the evaluator version pins the hash of every code file of the evaluator
    files = receipt["evaluator"]["files"]
    assert files["metrics.py"] == sha256_file(EVALUATION_DIR / "metrics.py")
    assert receipt["evaluator"]["codeSha256"] in contract_obj["evaluatorVersion"]
    assert result.report["metrics"]["contractSha256"] == receipt["contractSha256"]


def test_score_refuses_predictions_with_missing_rows(penguins_parts, tmp_path, run_job):
    parts, contract = penguins_parts
    labels = pd.read_parquet(parts["test"] / "labels.parquet")
    labels.iloc[1:].rename(columns={"label": "prediction"}).to_parquet(tmp_path / "predictions.parquet", index=False)
    result = run_job("evaluation", "score", {"predictions": str(tmp_path), "labels": str(parts["test"]),
                                             "task": "multiclass", "metric": "accuracy", "contract": contract},
                     tmp_path)
    assert result.returncode == 2, result.describe()
    assert result.report["error"]["code"] == "row_mismatch"
    assert not result.output("receipt.json").exists()


def test_evaluation_code_never_imports_the_training_library():
    for path in EVALUATION_DIR.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            assert not any(n.split(".")[0] in ("autogluon", "recipes") for n in names), (path, names)


def test_the_entry_point_exits_with_the_recipes_code_and_report_after_skipping_teardown(tmp_path, run_job):
    # __main__ ends with os._exit (a native library once aborted the process in teardown
    # after a completed job): the code must still be the recipe's, with its report written.
    result = run_job("evaluation", "baseline", {"labels": str(tmp_path / "absent"), "features": str(tmp_path / "absent"),
                                                "task": "multiclass"}, tmp_path)
    assert result.returncode == 2, result.describe()
    assert result.report["status"] == "failed" and result.report["error"]["type"] == "BadInput"
