"""bench/search_floor: the floor a search must beat (issue 17) — scikit-learn
HistGradientBoosting{Classifier,Regressor} with its default settings, fit on the TRAIN rows
of the experiments' own split (the split job's partition.csv) and scored on its validation
and test rows with the evaluation recipe's metrics (training/evaluation/metrics.py), so its
numbers sit next to the experiments' receipts on identical partitions.

    <evaluation env>/bin/python bench/search_floor.py --data FILE --target COL \
        --partition PARTITION_CSV --task multiclass --metric accuracy \
        [--exclude COL]... [--positive-class VALUE]

Prints one JSON object: {"metric", "validation", "test", "trainRows", "validationRows",
"testRows", "features", "fitSeconds"}. bench/search.ts runs it.

Features: the file's columns minus the target and the experiment's excluded columns, read
with pandas' defaults ("NA" is missing, as in the fixtures). Text columns become pandas
categoricals (HistGradientBoosting's default categorical_features="from_dtype" treats them
as categories); a text column with more distinct values than the 255 bins a category may
use is read as a date when it parses as one (days since the epoch), else as its category
codes. random_state=0 only makes the early-stopping split of a large set repeatable; no
other setting is changed.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.ensemble import HistGradientBoostingClassifier, HistGradientBoostingRegressor

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "training"))
from evaluation.metrics import classification_metrics, regression_metrics  # noqa: E402

MAX_CATEGORIES = 255


def feature_frame(frame: pd.DataFrame) -> pd.DataFrame:
    out = {}
    for name, col in frame.items():
        if pd.api.types.is_bool_dtype(col) or pd.api.types.is_numeric_dtype(col):
            out[name] = col
            continue
        # Missing as NaN, not pd.NA: HistGradientBoosting's encoder refuses a mix of NA and text.
        text = col.astype("string").astype(object).where(col.notna(), np.nan)
        if text.nunique(dropna=True) <= MAX_CATEGORIES:
            out[name] = text.astype("category")
            continue
        dates = pd.to_datetime(text, errors="coerce", format="mixed")
        if text.notna().sum() and dates.notna().sum() / text.notna().sum() >= 0.95:
            out[name] = (dates - pd.Timestamp("1970-01-01")).dt.days.astype(float)
        else:
            out[name] = text.astype("category").cat.codes.replace(-1, np.nan).astype(float)
    return pd.DataFrame(out, index=frame.index)


def score(task: str, metric: str, y_true: pd.Series, model, X: pd.DataFrame, classes: list[str], positive: str | None) -> float | None:
    if task == "regression":
        values, _ = regression_metrics(y_true.to_numpy(dtype=float), model.predict(X).astype(float))
        return values[metric]
    predicted = [str(p) for p in model.predict(X)]
    proba = pd.DataFrame(model.predict_proba(X), columns=[str(c) for c in model.classes_])
    values, _ = classification_metrics(y_true.tolist(), predicted, proba, classes, positive, task)
    return values[metric]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--data", required=True)
    ap.add_argument("--target", required=True)
    ap.add_argument("--partition", required=True)
    ap.add_argument("--task", required=True, choices=["binary", "multiclass", "regression"])
    ap.add_argument("--metric", required=True)
    ap.add_argument("--exclude", action="append", default=[])
    ap.add_argument("--positive-class", default=None)
    a = ap.parse_args()

    frame = pd.read_csv(a.data)
    part = pd.read_csv(a.partition, dtype={"row_id": "int64", "partition": "string"})
    if len(part) != len(frame) or not (part["row_id"].to_numpy() == np.arange(len(frame))).all():
        sys.exit(f"partition.csv has {len(part)} rows, {a.data} {len(frame)}: not the same table")
    where = part["partition"].to_numpy()
    X = feature_frame(frame.drop(columns=[a.target, *[c for c in a.exclude if c in frame.columns]]))
    y = frame[a.target]
    if a.task != "regression":
        y = y.astype("string").astype(object)
    rows = {p: where == p for p in ("train", "validation", "test")}

    model = (HistGradientBoostingRegressor if a.task == "regression" else HistGradientBoostingClassifier)(random_state=0)
    started = time.perf_counter()
    model.fit(X[rows["train"]], y[rows["train"]])
    fit_seconds = time.perf_counter() - started
    classes = sorted(set(y[~(where == "excluded")].dropna().tolist())) if a.task != "regression" else []
    result = {
        "metric": a.metric,
        "validation": score(a.task, a.metric, y[rows["validation"]], model, X[rows["validation"]], classes, a.positive_class),
        "test": score(a.task, a.metric, y[rows["test"]], model, X[rows["test"]], classes, a.positive_class),
        "trainRows": int(rows["train"].sum()),
        "validationRows": int(rows["validation"].sum()),
        "testRows": int(rows["test"].sum()),
        "features": list(X.columns),
        "fitSeconds": round(fit_seconds, 2),
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
