"""Train input validation and the preset -> AutoGluon fit arguments mapping (no processes)."""

from __future__ import annotations

import pytest

from recipes.tabular.options import parse_train_input
from recipes.tabular.presets import fit_kwargs
from trainyard_recipe import BadInput

BASE = {"dataset": "/d.csv", "datasetFormat": {"format": "csv"}, "split": "/split", "target": "y",
        "task": "multiclass"}


def test_defaults_and_metric_mapping():
    options = parse_train_input({**BASE, "metric": "f1"})
    assert options.ag_metric == "f1_macro" and options.preset == "quick"
    assert parse_train_input({**BASE, "task": "multiclass", "metric": "roc_auc"}).ag_metric == "roc_auc_ovr_macro"
    assert parse_train_input({**BASE, "task": "regression"}).ag_metric == "root_mean_squared_error"
    assert parse_train_input({**BASE, "task": "binary"}).metric == "roc_auc"


def test_budget_leaves_headroom_for_autogluon_overruns():
    options = parse_train_input({**BASE, "timeLimitSeconds": 40})
    assert options.fit_time_limit == pytest.approx(0.75 * 40 - 5)
    assert parse_train_input({**BASE, "timeLimitSeconds": 15}).fit_time_limit == 6.25


@pytest.mark.parametrize("change,fragment", [
    ({"task": "ranking"}, "task must be one of"),
    ({"task": "regression", "metric": "accuracy"}, "not available for a regression task"),
    ({"timeLimitSeconds": 3}, "timeLimitSeconds"),
    ({"numTrials": 0}, "numTrials"),
    ({"hyperparameters": {"NN_TORCH": {}}}, "cannot fit"),
    ({"positiveClass": "a"}, "only applies to a binary task"),
    ({"target": None}, "'target' is required"),
])
def test_bad_input_names_the_field(change, fragment):
    with pytest.raises(BadInput) as refused:
        parse_train_input({**BASE, **change})
    assert fragment in refused.value.message


def test_quick_preset_is_one_sequential_process_tree_without_bagging():
    options = parse_train_input({**BASE, "seed": 7, "hyperparameters": {"GBM": {}, "RF": [{"criterion": "gini"}]}})
    kwargs = fit_kwargs(options, cpus=2, callbacks=[])
    assert kwargs["fit_strategy"] == "sequential" and kwargs["dynamic_stacking"] is False
    assert kwargs["num_bag_folds"] == 0 and kwargs["num_cpus"] == 2
    assert kwargs["ag_args_ensemble"] == {"fold_fitting_strategy": "sequential_local"}
    assert "hyperparameter_tune_kwargs" not in kwargs
    assert kwargs["hyperparameters"] == {"GBM": [{"seed": 7}], "RF": [
        {"criterion": "gini", "random_state": 7, "ag_args_fit": {"max_time_limit_ratio": 0.5}}]}


def test_improve_preset_tunes_boosters_only_within_the_trials():
    options = parse_train_input({**BASE, "preset": "improve", "numTrials": 4,
                                 "hyperparameters": {"GBM": {}, "XT": {"criterion": "gini"}}})
    kwargs = fit_kwargs(options, cpus=1, callbacks=[])
    assert kwargs["hyperparameter_tune_kwargs"] == {"num_trials": 4, "scheduler": "local", "searcher": "random"}
    assert "ag_args" not in kwargs["hyperparameters"]["GBM"][0]
    assert kwargs["hyperparameters"]["XT"][0]["ag_args"] == {"hyperparameter_tune_kwargs": None}
