"""class_key: the one canonical name of a class label, for every recipe and the export.

A class travels through files written by different libraries, so one class may arrive as
int 1, float 1.0 (a target with missing values is read as float64), a numpy scalar or the
string "1". Classes are compared and named (proba::<class> columns, training.json,
receipts) only through class_key, so a join never depends on which writer made a file.

The export's predict.py runs without Trainyard installed: recipes/export/package.py pastes
this function's source into it, and a test checks that the shipped copy agrees.
Standard library only (math), which the pasted copy relies on.
"""

from __future__ import annotations

import math


def class_key(value) -> str:
    """1, 1.0 and numpy.int64(1) are "1" (-0.0 is "0"); 0.5 is "0.5"; True is "True"; else str()."""
    if hasattr(value, "item") and not isinstance(value, str):
        value = value.item()  # a numpy or pandas scalar becomes the Python value it holds
    if isinstance(value, bool):
        return "True" if value else "False"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if math.isfinite(value) and value.is_integer():
            return str(int(value))
        return repr(value)
    return str(value)
