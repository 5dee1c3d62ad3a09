"""Metric values under stable names, computed with scikit-learn.

Conventions (DESIGN.md "Data"): F1 is the positive class's for a binary task and macro for
multiclass; multiclass ROC AUC is macro one-vs-rest. A metric that cannot be computed on
these rows (no probabilities, a class absent from the labels) is None with a note saying
why, never a made-up number.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn import metrics as skm

HIGHER_IS_BETTER = "higher_is_better"
LOWER_IS_BETTER = "lower_is_better"

CLASSIFICATION_METRICS = ("accuracy", "balanced_accuracy", "f1", "roc_auc", "log_loss")
REGRESSION_METRICS = ("rmse", "mae", "r2")
DIRECTIONS = {
    "accuracy": HIGHER_IS_BETTER,
    "balanced_accuracy": HIGHER_IS_BETTER,
    "f1": HIGHER_IS_BETTER,
    "roc_auc": HIGHER_IS_BETTER,
    "log_loss": LOWER_IS_BETTER,
    "rmse": LOWER_IS_BETTER,
    "mae": LOWER_IS_BETTER,
    "r2": HIGHER_IS_BETTER,
}


def metrics_for_task(task: str) -> tuple[str, ...]:
    return REGRESSION_METRICS if task == "regression" else CLASSIFICATION_METRICS


def direction_of(metric: str) -> str:
    return DIRECTIONS[metric]


def proba_matrix(proba: pd.DataFrame, classes: list[str]) -> np.ndarray:
    """Rows renormalised to sum to 1 (writers round); a class without a column gets 0."""
    matrix = np.column_stack([
        proba[c].to_numpy(dtype=float) if c in proba.columns else np.zeros(len(proba))
        for c in classes
    ])
    matrix = np.clip(matrix, 0.0, None)
    sums = matrix.sum(axis=1, keepdims=True)
    sums[sums == 0] = 1.0
    return matrix / sums


def classification_metrics(
    actual: list[str], predicted: list[str], proba: pd.DataFrame | None,
    classes: list[str], positive: str | None, task: str,
) -> tuple[dict, dict]:
    """Returns (values by metric name, notes by metric name for the ones left None)."""
    values: dict = {}
    notes: dict = {}
    y_true = np.asarray(actual, dtype=object)
    y_pred = np.asarray(predicted, dtype=object)
    values["accuracy"] = float(skm.accuracy_score(y_true, y_pred))
    values["balanced_accuracy"] = float(skm.balanced_accuracy_score(y_true, y_pred))
    if task == "binary":
        values["f1"] = float(skm.f1_score(y_true, y_pred, pos_label=positive, average="binary", zero_division=0))
    else:
        values["f1"] = float(skm.f1_score(y_true, y_pred, labels=classes, average="macro", zero_division=0))
    if proba is None:
        values["roc_auc"] = values["log_loss"] = None
        notes["roc_auc"] = notes["log_loss"] = "predictions carry no class probabilities"
        return values, notes
    matrix = proba_matrix(proba, classes)
    values["log_loss"] = float(skm.log_loss(y_true, matrix, labels=classes))
    present = set(y_true.tolist())
    if task == "binary":
        if len(present) < 2:
            values["roc_auc"] = None
            notes["roc_auc"] = "labels hold only one class"
        else:
            scores = matrix[:, classes.index(positive)]
            values["roc_auc"] = float(skm.roc_auc_score(y_true == positive, scores))
    else:
        absent = [c for c in classes if c not in present]
        if absent:
            values["roc_auc"] = None
            notes["roc_auc"] = f"classes absent from the labels: {absent}"
        else:
            values["roc_auc"] = float(skm.roc_auc_score(y_true, matrix, labels=classes, multi_class="ovr", average="macro"))
    return values, notes


def per_class_scores(actual: list[str], predicted: list[str], classes: list[str]) -> dict:
    precision, recall, f1, support = skm.precision_recall_fscore_support(
        np.asarray(actual, dtype=object), np.asarray(predicted, dtype=object),
        labels=classes, zero_division=0,
    )
    return {
        c: {"precision": float(p), "recall": float(r), "f1": float(f), "support": int(s)}
        for c, p, r, f, s in zip(classes, precision, recall, f1, support)
    }


def confusion(actual: list[str], predicted: list[str], classes: list[str]) -> dict:
    """Rows are actual classes, columns predicted classes, in `labels` order."""
    matrix = skm.confusion_matrix(np.asarray(actual, dtype=object), np.asarray(predicted, dtype=object), labels=classes)
    return {"labels": list(classes), "matrix": matrix.astype(int).tolist()}


def regression_metrics(actual: np.ndarray, predicted: np.ndarray) -> tuple[dict, dict]:
    notes: dict = {}
    values = {
        "rmse": float(np.sqrt(skm.mean_squared_error(actual, predicted))),
        "mae": float(skm.mean_absolute_error(actual, predicted)),
    }
    if len(actual) < 2 or float(np.var(actual)) == 0.0:
        values["r2"] = None
        notes["r2"] = "r2 is undefined when the labels are constant or fewer than two"
    else:
        values["r2"] = float(skm.r2_score(actual, predicted))
    return values, notes


RESIDUAL_QUANTILES = (0.0, 0.05, 0.25, 0.5, 0.75, 0.95, 1.0)
MAX_RESIDUAL_PAIRS = 200


def residual_summary(row_id: np.ndarray, actual: np.ndarray, predicted: np.ndarray) -> dict:
    """Residual = predicted - actual. The pair sample is seeded, so a receipt is reproducible."""
    residual = predicted - actual
    quantiles = {f"q{int(q * 100):02d}": float(np.quantile(residual, q)) for q in RESIDUAL_QUANTILES}
    count = min(MAX_RESIDUAL_PAIRS, len(actual))
    picked = np.sort(np.random.default_rng(0).choice(len(actual), size=count, replace=False))
    return {
        "definition": "predicted - actual",
        "mean": float(residual.mean()),
        "std": float(residual.std()),
        "quantiles": quantiles,
        "sample": [
            {"rowId": int(row_id[i]), "actual": float(actual[i]), "predicted": float(predicted[i])}
            for i in picked
        ],
    }
