"""Job `baseline`: the naive predictor every candidate must beat.

Input: {labels: TRAIN partition labels.parquet (or its folder), features: the partition to
predict (features.parquet or its folder; only row_id is read), task}
Output: predictions.parquet — the training majority class with the training class
frequencies as probabilities, or the training mean for regression.
"""

from __future__ import annotations

import pandas as pd
from trainyard_recipe import BadInput, emit

from evaluation.inputs import require, require_task, resolve_file
from evaluation.tables import PROBA_PREFIX, class_key, read_parquet


def run_baseline(ctx, inputs: dict) -> dict:
    emit(ctx, "phase", phase="evaluating")
    task = require_task(inputs)
    labels_path = resolve_file(require(inputs, "labels"), "labels.parquet", "labels")
    features_path = resolve_file(require(inputs, "features"), "features.parquet", "features")
    train = read_parquet(labels_path, "training labels")
    if "label" not in train.columns or train["label"].dropna().empty:
        raise BadInput(f"training labels {labels_path} hold no 'label' values", code="empty_input")
    rows = pd.read_parquet(features_path, columns=["row_id"])
    out = baseline_predictions(train["label"].dropna(), rows["row_id"], task)
    out.to_parquet(ctx.output_dir / "predictions.parquet", index=False)
    return {"rows": int(len(out)), "kind": "mean" if task == "regression" else "majority_class",
            "trainRows": int(train["label"].notna().sum())}


def baseline_predictions(train_labels: pd.Series, row_ids: pd.Series, task: str) -> pd.DataFrame:
    """Constant predictions fitted on the training labels only."""
    out = pd.DataFrame({"row_id": row_ids.to_numpy()})
    if task == "regression":
        try:
            mean = float(pd.to_numeric(train_labels).mean())
        except (TypeError, ValueError) as error:
            raise BadInput(f"regression training labels must be numbers: {error}", code="schema_mismatch")
        out["prediction"] = mean
        return out
    counts = train_labels.value_counts()
    # keep the label's own value (and dtype) for `prediction`; ties go to the smallest key
    order = sorted(counts.index, key=lambda v: (-int(counts[v]), class_key(v)))
    majority = order[0]
    out["prediction"] = pd.Series([majority] * len(out), dtype=train_labels.dtype)
    total = float(counts.sum())
    for value in sorted(counts.index, key=class_key):
        out[PROBA_PREFIX + class_key(value)] = float(counts[value]) / total
    return out
