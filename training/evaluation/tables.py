"""Loading and joining predictions with labels, with the checks a receipt relies on.

Class labels travel through parquet files written by different libraries, so a class may
arrive as int 1, float 1.0 or string "1". Every class is compared through
trainyard_recipe's `class_key` (re-exported here for score and baseline), the same rule the
tabular recipe and the export's predict.py name classes by.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd
from trainyard_recipe import BadInput, class_key

__all__ = ["PROBA_PREFIX", "Joined", "class_key", "join_predictions", "read_parquet"]

PROBA_PREFIX = "proba::"


def read_parquet(path: str, what: str) -> pd.DataFrame:
    try:
        frame = pd.read_parquet(path)
    except Exception as error:  # pyarrow raises several types for unreadable files
        raise BadInput(f"cannot read {what} parquet file {path}: {error}", code="unreadable_input")
    if "row_id" not in frame.columns:
        raise BadInput(f"{what} file {path} has no row_id column", code="schema_mismatch")
    if frame["row_id"].duplicated().any():
        dupes = frame.loc[frame["row_id"].duplicated(), "row_id"].head(5).tolist()
        raise BadInput(f"{what} file {path} repeats row ids, e.g. {dupes}", code="duplicate_rows")
    return frame


@dataclass
class Joined:
    """Labels and predictions aligned on row_id (sorted)."""

    row_id: np.ndarray
    actual: pd.Series
    predicted: pd.Series
    proba: pd.DataFrame | None  # columns = class keys, or None when absent


def join_predictions(predictions: pd.DataFrame, labels: pd.DataFrame) -> Joined:
    """Align on row_id; the row sets must be identical (a missing or extra row is bad input)."""
    for column in ("prediction",):
        if column not in predictions.columns:
            raise BadInput(f"predictions have no '{column}' column", code="schema_mismatch")
    if "label" not in labels.columns:
        raise BadInput("labels have no 'label' column", code="schema_mismatch")
    predicted_ids = set(predictions["row_id"].tolist())
    label_ids = set(labels["row_id"].tolist())
    if predicted_ids != label_ids:
        missing = sorted(label_ids - predicted_ids)[:10]
        extra = sorted(predicted_ids - label_ids)[:10]
        raise BadInput(
            f"prediction rows do not match label rows: {len(label_ids - predicted_ids)} missing "
            f"(e.g. {missing}), {len(predicted_ids - label_ids)} extra (e.g. {extra})",
            code="row_mismatch",
        )
    predictions = predictions.sort_values("row_id").reset_index(drop=True)
    labels = labels.sort_values("row_id").reset_index(drop=True)
    if labels["label"].isna().any():
        raise BadInput("labels contain missing values; the split should exclude them", code="missing_labels")
    proba_columns = [c for c in predictions.columns if c.startswith(PROBA_PREFIX)]
    proba = None
    if proba_columns:
        proba = predictions[proba_columns].astype(float)
        proba.columns = [c[len(PROBA_PREFIX):] for c in proba_columns]
    return Joined(
        row_id=labels["row_id"].to_numpy(),
        actual=labels["label"],
        predicted=predictions["prediction"],
        proba=proba,
    )
