"""Side outputs of `train`: leaderboard, feature importance, environment lock, requirements."""

from __future__ import annotations

import importlib.metadata
import math
import platform
import shutil
import sys
from pathlib import Path

from trainyard_recipe.atomic import write_bytes_atomic

# Permutation importance is only computed when this much of the budget is left, and then
# within a bounded share of it: it is a nice-to-have, never a reason to miss the deadline.
IMPORTANCE_MIN_REMAINING_SECONDS = 8.0
IMPORTANCE_MAX_SECONDS = 30.0


def _num(value):
    if value is None:
        return None
    value = float(value)
    return value if math.isfinite(value) else None


def leaderboard_rows(predictor, validation, scorer) -> list:
    """Models best first, with the validation score in the metric's own units."""
    board = predictor.leaderboard(silent=True)
    rows = []
    for record in board.to_dict(orient="records"):
        score = _num(record.get("score_val"))
        rows.append({
            "model": record["model"],
            "validationScore": None if score is None else float(scorer.convert_score_to_original(score)),
            "fitSeconds": _num(record.get("fit_time")),
            "predictSecondsValidation": _num(record.get("pred_time_val")),
            "stackLevel": int(record.get("stack_level", 1)),
        })
    return rows


def feature_importance(predictor, validation, remaining_seconds: float):
    """Permutation importance on the validation partition, or (None, reason)."""
    if remaining_seconds < IMPORTANCE_MIN_REMAINING_SECONDS:
        return None, f"skipped: only {remaining_seconds:.1f} s of the budget left after fitting"
    budget = min(IMPORTANCE_MAX_SECONDS, 0.3 * remaining_seconds)
    try:
        frame = predictor.feature_importance(validation, subsample_size=1000, num_shuffle_sets=3,
                                             time_limit=budget, silent=True)
    except Exception as error:  # noqa: BLE001 - optional output; a stop (BaseException) still propagates
        return None, f"failed: {type(error).__name__}: {error}"
    features = [
        {"name": str(name), "importance": _num(row["importance"]), "stddev": _num(row.get("stddev")),
         "pValue": _num(row.get("p_value")), "shuffleSets": int(row["n"]) if "n" in row else None}
        for name, row in frame.iterrows()
    ]
    return {"method": "permutation", "partition": "validation", "metricUnits": "score drop (higher = more important)",
            "features": features}, None


def write_environment_lock(path: Path) -> None:
    """Every installed distribution of this interpreter's environment, pinned, plus Python."""
    lines = [f"# python {platform.python_version()} ({platform.python_implementation()}) "
             f"{sys.platform}-{platform.machine()}"]
    seen = {}
    for dist in importlib.metadata.distributions():
        name = dist.metadata["Name"]
        if name and name.lower() not in seen:
            seen[name.lower()] = f"{name}=={dist.version}"
    lines += [seen[key] for key in sorted(seen)]
    write_bytes_atomic(path, ("\n".join(lines) + "\n").encode("utf-8"))


def write_requirements(path: Path) -> None:
    """The recipe's own pinned requirements, so an export can rebuild this environment."""
    shutil.copyfile(Path(__file__).resolve().parent / "requirements.txt", path)
