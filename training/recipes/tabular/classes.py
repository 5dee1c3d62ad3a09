"""Canonical class names: the same rule as the evaluator's (training/evaluation/tables.py).

A target with missing values is read as float64, so its classes arrive as 0.0/1.0; they are
named "0"/"1" in proba::<class> columns, training.json and receipts alike, so the
evaluator's join never depends on which library wrote a file.
"""

from __future__ import annotations

import math


def class_key(value) -> str:
    if hasattr(value, "item") and not isinstance(value, str):
        value = value.item()
    if isinstance(value, bool):
        return "True" if value else "False"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isfinite(value) and value.is_integer():
            return str(int(value))
        return repr(value)
    return str(value)
