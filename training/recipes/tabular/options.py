"""Train job input -> validated options: task, metric, preset, time budget, overrides.

The metric names are the evaluator's stable names (training/evaluation/metrics.py); this
module maps them to AutoGluon's so that model selection optimises the metric the receipt
will report.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from trainyard_recipe import BadInput

TASKS = ("binary", "multiclass", "regression")
PRESETS = ("quick", "improve")

# stable metric name -> AutoGluon eval_metric, per task kind
CLASSIFICATION_METRICS = {
    "binary": {"accuracy": "accuracy", "balanced_accuracy": "balanced_accuracy", "f1": "f1",
               "roc_auc": "roc_auc", "log_loss": "log_loss"},
    "multiclass": {"accuracy": "accuracy", "balanced_accuracy": "balanced_accuracy", "f1": "f1_macro",
                   "roc_auc": "roc_auc_ovr_macro", "log_loss": "log_loss"},
}
REGRESSION_METRICS = {"rmse": "root_mean_squared_error", "mae": "mean_absolute_error", "r2": "r2"}
DEFAULT_METRIC = {"binary": "roc_auc", "multiclass": "accuracy", "regression": "rmse"}

# Model families this environment can fit (no torch, no XGBoost installed on purpose).
ALLOWED_MODEL_KEYS = ("GBM", "CAT", "RF", "XT", "KNN", "LR")

# Share of the job's budget handed to AutoGluon, and a fixed reserve for reading data,
# feature importance, cloning and saving: AutoGluon overruns time_limit (#1402, #2012)
# and the worker's deadline is a hard stop.
FIT_SHARE = 0.75
FIT_RESERVE_SECONDS = 5.0
MIN_FIT_SECONDS = 5.0
MIN_BUDGET_SECONDS = 15


@dataclass
class TrainOptions:
    dataset: str
    dataset_format: dict
    split_dir: str
    target: str
    task: str
    metric: str
    ag_metric: str
    positive_class: object
    exclude_columns: list = field(default_factory=list)
    preset: str = "quick"
    time_limit_seconds: float = 120.0
    num_trials: int = 5
    seed: int = 0
    hyperparameters: dict | None = None

    @property
    def fit_time_limit(self) -> float:
        return max(MIN_FIT_SECONDS, FIT_SHARE * self.time_limit_seconds - FIT_RESERVE_SECONDS)


def _need(inputs: dict, key: str, kind):
    value = inputs.get(key)
    if value is None or (isinstance(value, str) and value == ""):
        raise BadInput(f"train input field '{key}' is required", code="missing_field", details={"fields": [key]})
    if not isinstance(value, kind) or isinstance(value, bool) and kind is not bool:
        raise BadInput(f"train input field '{key}' has the wrong type ({type(value).__name__})", code="invalid_input")
    return value


def parse_train_input(inputs: dict) -> TrainOptions:
    task = _need(inputs, "task", str)
    if task not in TASKS:
        raise BadInput(f"task must be one of {TASKS}, got {task!r}", code="invalid_input")
    table = REGRESSION_METRICS if task == "regression" else CLASSIFICATION_METRICS[task]
    metric = inputs.get("metric") or DEFAULT_METRIC[task]
    if metric not in table:
        raise BadInput(f"metric {metric!r} is not available for a {task} task; use one of {sorted(table)}",
                       code="invalid_input")
    preset = inputs.get("preset") or "quick"
    if preset not in PRESETS:
        raise BadInput(f"preset must be one of {PRESETS}, got {preset!r}", code="invalid_input")
    budget = inputs.get("timeLimitSeconds", 120)
    if not isinstance(budget, (int, float)) or isinstance(budget, bool) or budget < MIN_BUDGET_SECONDS:
        raise BadInput(f"timeLimitSeconds must be a number >= {MIN_BUDGET_SECONDS}, got {budget!r}", code="invalid_input")
    trials = inputs.get("numTrials", 5)
    if not isinstance(trials, int) or isinstance(trials, bool) or not 1 <= trials <= 1000:
        raise BadInput(f"numTrials must be an integer in 1..1000, got {trials!r}", code="invalid_input")
    seed = inputs.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise BadInput(f"seed must be a non-negative integer, got {seed!r}", code="invalid_input")
    exclude = inputs.get("excludeColumns") or []
    if not isinstance(exclude, list) or not all(isinstance(c, str) for c in exclude):
        raise BadInput("excludeColumns must be a list of column names", code="invalid_input")
    overrides = inputs.get("hyperparameters")
    if overrides is not None:
        if not isinstance(overrides, dict) or not overrides:
            raise BadInput("hyperparameters must be a non-empty object keyed by model family", code="invalid_input")
        unknown = sorted(set(overrides) - set(ALLOWED_MODEL_KEYS))
        if unknown:
            raise BadInput(f"hyperparameters name model families this recipe cannot fit: {unknown}; "
                           f"allowed: {list(ALLOWED_MODEL_KEYS)}", code="invalid_input")
    positive = inputs.get("positiveClass")
    if positive is not None and task != "binary":
        raise BadInput("positiveClass only applies to a binary task", code="invalid_input")
    return TrainOptions(
        dataset=_need(inputs, "dataset", str),
        dataset_format=_need(inputs, "datasetFormat", dict),
        split_dir=_need(inputs, "split", str),
        target=_need(inputs, "target", str),
        task=task, metric=metric, ag_metric=table[metric], positive_class=positive,
        exclude_columns=list(exclude), preset=preset, time_limit_seconds=float(budget),
        num_trials=trials, seed=seed, hyperparameters=overrides,
    )
