"""The searches' tabular space trains (issue 17): penguins once per model family, with the
middle of each of that family's ranges as `hyperparameters`, as a trial would send them
(contracts/searches/tabular-space.ts hyperparametersOf: only the chosen family's values)."""

from __future__ import annotations

import shutil

import pytest
from conftest import FIXTURES

from recipes.tabular.options import parse_train_input
from recipes.tabular.presets import fit_kwargs
from recipes.tabular.tests.pipeline import run
from recipes.tabular.tests.split_fixture import CSV_FORMAT, make_split, write_partition

# The middle of each range of contracts/searches/tabular-space.ts TABULAR_SPACE (keep in step
# with that file): the geometric middle of a log range, the arithmetic middle of a linear one
# (rounded for an int), the middle choice of a categorical.
MIDDLE = {
    "GBM": {"learning_rate": 0.055, "num_leaves": 32, "min_data_in_leaf": 10},  # log 0.01-0.3, log 8-128, log 2-50
    "CAT": {"learning_rate": 0.055, "depth": 6, "l2_leaf_reg": 3.16},  # log 0.01-0.3, 4-8, log 1-10
    "RF": {"n_estimators": 175, "max_features": "log2", "min_samples_leaf": 5},  # 50-300, [sqrt, log2, 0.5], 1-10
    "XT": {"n_estimators": 175, "max_features": "log2", "min_samples_leaf": 5},
}
# AutoGluon's model names per family (the leaderboard's `model`).
MODEL_PREFIX = {"GBM": "LightGBM", "CAT": "CatBoost", "RF": "RandomForest", "XT": "ExtraTrees"}


@pytest.fixture(scope="module")
def penguins_split(tmp_path_factory):
    root = tmp_path_factory.mktemp("search-space")
    dataset = root / "penguins.csv"
    shutil.copyfile(FIXTURES / "penguins.csv", dataset)
    return root, dataset, make_split(dataset, root / "split", "species", "multiclass", seed=0)


@pytest.mark.parametrize("family", list(MIDDLE))
def test_each_family_trains_alone_at_the_middle_of_its_space(penguins_split, tmp_path, family):
    _root, dataset, split_dir = penguins_split
    train_input = {"dataset": str(dataset), "datasetFormat": CSV_FORMAT, "split": str(split_dir),
                   "target": "species", "task": "multiclass", "metric": "accuracy", "preset": "quick",
                   "timeLimitSeconds": 20, "seed": 0, "hyperparameters": {family: MIDDLE[family]}}
    train = run("tabular", "train", train_input, tmp_path)
    models = train.output_json("leaderboard.json")["models"]
    # Only that family's one model: no WeightedEnsemble_L2 around it (presets.fit_kwargs).
    assert [m["model"] for m in models] == [MODEL_PREFIX[family]], models
    training = train.output_json("training.json")
    assert training["bestModel"] == MODEL_PREFIX[family] and training["modelsFit"] == 1
    assert training["validationScore"] > 0.8, models
    if family == "GBM":  # the exported predictor of a lone model predicts
        test_rows = write_partition(dataset, split_dir, "test", "species", tmp_path / "features-test")
        predict = run("tabular", "predict", {"model": str(train.output_dir), "features": str(test_rows)}, tmp_path)
        assert predict.report["status"] == "completed", predict.describe()


BASE = {"dataset": "/d.csv", "datasetFormat": {"format": "csv"}, "split": "/split", "target": "y",
        "task": "multiclass"}


@pytest.mark.parametrize(("change", "ensemble"), [
    ({"hyperparameters": {"GBM": MIDDLE["GBM"]}}, False),  # a trial: one model, nothing to ensemble
    ({"hyperparameters": {"RF": [MIDDLE["RF"]]}}, False),
    ({"hyperparameters": {"GBM": {}, "RF": {}}}, True),
    ({"hyperparameters": {"GBM": [{}, {"learning_rate": 0.1}]}}, True),
    ({"hyperparameters": {"GBM": {}}, "preset": "improve"}, True),  # tuning fits several trial models
])
def test_a_lone_model_is_not_wrapped_in_an_ensemble(change, ensemble):
    kwargs = fit_kwargs(parse_train_input({**BASE, **change}), cpus=1, callbacks=[])
    assert kwargs.get("fit_weighted_ensemble", True) is ensemble
