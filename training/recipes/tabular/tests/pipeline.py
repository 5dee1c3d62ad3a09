"""Test helper: the experiment chain (split -> features -> train -> predict -> baseline -> score)
run with the real recipe jobs as subprocesses, memoised per scenario for the test session so
the tabular, evaluation and export tests share one trained model per dataset.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass
from pathlib import Path

from conftest import FIXTURES, JobResult, start_recipe_job  # training/conftest.py (pythonpath = training)

from recipes.tabular.tests.split_fixture import (CSV_FORMAT, diamonds_subsample, make_split,
                                                 penguins_sex_as_numbers, sha256_file, write_partition)

SCENARIOS = {
    # name: (fixture file, target, task, metric, budget seconds)
    "penguins": ("penguins.csv", "species", "multiclass", "accuracy", 30),
    "penguins_sex": ("penguins.csv", "sex", "binary", "roc_auc", 30),
    "diamonds": ("diamonds.csv", "price", "regression", "rmse", 40),
}

_cache: dict = {}


@dataclass
class Pipeline:
    root: Path
    dataset: Path
    target: str
    task: str
    metric: str
    split_dir: Path
    partitions: dict  # name -> folder with features.parquet + labels.parquet
    train: JobResult
    predict: JobResult
    baseline: JobResult
    score: JobResult
    baseline_score: JobResult
    train_input: dict

    @property
    def model_dir(self) -> Path:
        return self.train.output_dir

    def receipt(self) -> dict:
        return self.score.output_json("receipt.json")

    def baseline_receipt(self) -> dict:
        return self.baseline_score.output_json("receipt.json")


def run(recipe: str, job: str, payload: dict, tmp: Path, cpus: int = 2) -> JobResult:
    result = start_recipe_job(recipe, job, payload, tmp, cpus=cpus).wait(300)
    assert result.returncode == 0, f"{recipe}.{job} failed: {result.describe()}"
    return result


def get(name: str, tmp_factory) -> Pipeline:
    if name not in _cache:
        _cache[name] = _build(name, tmp_factory.mktemp(name))
    return _cache[name]


def _build(name: str, root: Path) -> Pipeline:
    source, target, task, metric, budget = SCENARIOS[name]
    dataset = root / source
    if name == "diamonds":
        diamonds_subsample(FIXTURES / source, dataset, rows=1500)
    elif name == "penguins_sex":
        penguins_sex_as_numbers(FIXTURES / source, dataset)
    else:
        shutil.copyfile(FIXTURES / source, dataset)
    split_dir = make_split(dataset, root / "split", target, task, seed=0)
    partitions = {p: write_partition(dataset, split_dir, p, target, root / f"features-{p}")
                  for p in ("train", "validation", "test")}
    train_input = {"dataset": str(dataset), "datasetFormat": CSV_FORMAT, "split": str(split_dir), "target": target,
                   "task": task, "metric": metric, "preset": "quick", "timeLimitSeconds": budget, "seed": 0}
    train = run("tabular", "train", train_input, root)
    predict = run("tabular", "predict", {"model": str(train.output_dir), "features": str(partitions["test"])}, root)
    baseline = run("evaluation", "baseline", {"labels": str(partitions["train"]), "features": str(partitions["test"]),
                                              "task": task}, root)
    contract = {"snapshotSha256": sha256_file(dataset), "splitSha256": sha256_file(split_dir / "split.json")}
    training = train.output_json("training.json")
    score_input = {"labels": str(partitions["test"]), "task": task, "metric": metric,
                   "positiveClass": training["positiveClass"], "classes": training["classLabels"]}
    score = run("evaluation", "score", {**score_input, "predictions": str(predict.output_dir), "contract": {
        **contract, "exportSha256": sha256_file(train.output_dir / "manifest.json")}}, root)
    baseline_score = run("evaluation", "score", {**score_input, "predictions": str(baseline.output_dir),
                                                 "contract": {**contract, "exportSha256": None}}, root)
    return Pipeline(root, dataset, target, task, metric, split_dir, partitions, train, predict, baseline, score,
                    baseline_score, train_input)


def read_json(path: Path) -> dict:
    return json.loads(Path(path).read_text(encoding="utf-8"))
