"""Suggest the task (binary, multiclass, regression) and the primary metric, each with one
plain sentence of why. Metric names follow training/evaluation (accuracy,
balanced_accuracy, rmse, ...).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from trainyard_recipe.errors import BadInput

MAX_INTEGER_CLASSES = 10
BINARY_IMBALANCE = 0.35  # minority share below which plain accuracy flatters "always the majority"
MULTICLASS_IMBALANCE = 0.10


def _listing(values, limit: int = 5) -> str:
    shown = [str(v) for v in list(values)[:limit]]
    return ", ".join(shown) + (", …" if len(values) > limit else "")


def _number(value: float) -> str:
    return f"{value:,.0f}" if float(value).is_integer() else f"{value:,.4g}"


def suggest_task(target: str, y: pd.Series, target_type: str) -> tuple[str, str]:
    distinct = y.nunique()
    if distinct == 0:
        raise BadInput(f"target {target} has no values (every row is missing)", code="target_single_value")
    if distinct == 1:
        raise BadInput(f"target {target} has a single value ({y.iloc[0]}) in every row; there is nothing to "
                       "predict", code="target_single_value")
    if target_type == "datetime":
        raise BadInput(f"target {target} holds dates; predicting a date is not supported — choose a number or "
                       "a category", code="unsupported_target")
    values = sorted(y.unique(), key=str)
    if distinct == 2:
        return "binary", f"{target} has two values ({_listing(values)}), so this is a yes/no (binary) classification"
    if pd.api.types.is_numeric_dtype(y) and not pd.api.types.is_bool_dtype(y):
        integral = bool(np.all(np.mod(y.astype(float), 1) == 0))
        if integral and distinct <= MAX_INTEGER_CLASSES:
            return "multiclass", (f"{target} is a whole number with only {distinct} values ({_listing(values)}), "
                                  "so each value is treated as a class; choose regression if the order matters")
        return "regression", (f"{target} is a number with {distinct:,} distinct values from {_number(y.min())} to "
                              f"{_number(y.max())}, so this is regression")
    return "multiclass", f"{target} has {distinct} categories ({_listing(values)}), so this is multiclass classification"


def suggest_metric(target: str, y: pd.Series, task: str, counts: dict[str, int] | None,
                   positive: str | None) -> tuple[str, str, str]:
    """(metric, direction, reason)."""
    if task == "regression":
        return "rmse", "lower_is_better", (f"{target} is a continuous number; root mean squared error is in "
                                           f"{target}'s own units and weighs large misses more")
    assert counts is not None
    n = sum(counts.values())
    ordered = sorted(counts.items(), key=lambda kv: -kv[1])
    shares = "/".join(f"{round(100 * v / n)}" for _, v in ordered)
    majority = ordered[0][0]
    smallest, smallest_count = ordered[-1]
    if task == "binary":
        if smallest_count / n < BINARY_IMBALANCE:
            return "balanced_accuracy", "higher_is_better", (
                f"classes are {shares} ({_listing([k for k, _ in ordered])}), so accuracy would flatter a model that "
                f"always says {majority}; balanced accuracy (the mean of each class's recall) is used")
        return "accuracy", "higher_is_better", (f"classes are {shares}, close enough to even that accuracy (the share "
                                                "of correct predictions) reads plainly")
    if smallest_count / n < MULTICLASS_IMBALANCE:
        return "balanced_accuracy", "higher_is_better", (
            f"the smallest class, {smallest}, is {100 * smallest_count / n:.1f}% of rows, so accuracy would reward "
            "ignoring it; balanced accuracy (the mean of each class's recall) is used")
    return "accuracy", "higher_is_better", (f"classes are {shares}; every class has at least "
                                            f"{100 * smallest_count / n:.0f}% of rows, so accuracy reads plainly")
