"""The two presets as AutoGluon fit() keyword arguments.

quick   : AutoGluon's `medium_quality` (no bagging, no stacking) restricted to the model
          families installed here (LightGBM, CatBoost, random forests, extra trees).
improve : the same families with random-search hyperparameter tuning, bounded by
          numTrials and the time budget; tuning runs in-process (scheduler "local").
Both fit sequentially in one process tree (no Ray) and select models on the validation
partition given as tuning_data; bagging is never enabled, since it would train on it.
"""

from __future__ import annotations

import copy

from recipes.tabular.options import ALLOWED_MODEL_KEYS, TrainOptions


def default_hyperparameters() -> dict:
    from autogluon.tabular.configs.hyperparameter_configs import get_hyperparameter_config

    config = get_hyperparameter_config("default")
    return {key: copy.deepcopy(value) for key, value in config.items() if key in ALLOWED_MODEL_KEYS}


# Families without a search space: under hyperparameter_tune_kwargs AutoGluon 1.6 fits them
# without the validation partition and scores them out-of-bag on train rows, which would
# put a different yardstick in the leaderboard. They are fitted once, untuned.
UNTUNED_FAMILIES = ("RF", "XT", "KNN", "LR")


# The hyperparameter each family reads its random seed from (AutoGluon's `seed_name`).
SEED_NAMES = {"GBM": "seed", "CAT": "random_seed", "RF": "random_state", "XT": "random_state", "LR": "random_state"}


def with_seed(hyperparameters: dict, seed: int) -> dict:
    """Every config gets the job's seed unless it names its own."""
    out = copy.deepcopy(hyperparameters)
    for family, seed_name in SEED_NAMES.items():
        if family not in out:
            continue
        configs = out[family] if isinstance(out[family], list) else [out[family]]
        for config in configs:
            config.setdefault(seed_name, seed)
        out[family] = configs
    return out


# Forests fit their trees in one uninterruptible call sized from a timing of the first few
# trees; on a busy machine that estimate was 2x off (RandomForestMSE took 54 s of a 30 s
# slot on 38k diamonds rows). Halving their slot keeps such a miss inside the budget.
FOREST_FAMILIES = ("RF", "XT")
FOREST_TIME_RATIO = 0.5


def _each_config(hyperparameters: dict, families, change) -> dict:
    """A deep copy where `change` has run on every config of the named families (one or a list each)."""
    out = copy.deepcopy(hyperparameters)
    for family in families:
        if family not in out:
            continue
        configs = out[family] if isinstance(out[family], list) else [out[family]]
        for config in configs:
            change(config)
        out[family] = configs
    return out


def with_forest_margin(hyperparameters: dict) -> dict:
    return _each_config(
        hyperparameters,
        FOREST_FAMILIES,
        lambda config: config.setdefault("ag_args_fit", {}).setdefault("max_time_limit_ratio", FOREST_TIME_RATIO),
    )


def without_tuning(hyperparameters: dict, families) -> dict:
    def untuned(config: dict) -> None:
        config.setdefault("ag_args", {})["hyperparameter_tune_kwargs"] = None

    return _each_config(hyperparameters, families, untuned)


def _config_count(hyperparameters: dict) -> int:
    return sum(len(configs) if isinstance(configs, list) else 1 for configs in hyperparameters.values())


def fit_kwargs(options: TrainOptions, cpus: int, callbacks: list) -> dict:
    hyperparameters = with_forest_margin(with_seed(options.hyperparameters or default_hyperparameters(), options.seed))
    kwargs = {
        "presets": "medium_quality",
        "hyperparameters": hyperparameters,
        "time_limit": options.fit_time_limit,
        "num_bag_folds": 0,
        "num_stack_levels": 0,
        "auto_stack": False,
        "dynamic_stacking": False,
        "fit_strategy": "sequential",
        "num_cpus": cpus,
        "num_gpus": 0,
        "ag_args_ensemble": {"fold_fitting_strategy": "sequential_local"},
        "callbacks": callbacks,
        "verbosity": 1,
    }
    if options.preset == "quick" and _config_count(hyperparameters) == 1:
        # One model (a search trial's family): AutoGluon would wrap it in a WeightedEnsemble_L2
        # of that one model, with the same validation score, chosen as best and exported as a
        # second model; the trial is the model itself.
        kwargs["fit_weighted_ensemble"] = False
    if options.preset == "improve":
        hyperparameters = without_tuning(hyperparameters, UNTUNED_FAMILIES)
        kwargs["hyperparameters"] = hyperparameters
        kwargs["hyperparameter_tune_kwargs"] = {
            "num_trials": options.num_trials,
            "scheduler": "local",
            "searcher": "random",
        }
    return kwargs
