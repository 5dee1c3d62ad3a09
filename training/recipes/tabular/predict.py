"""Job `predict`: features in, predictions out; labels are never read.

Input: {model: a train output folder, features: features.parquet (with row_id) or a
table of new rows (then datasetFormat is required and row ids are the 0-based row index)}.
Output: predictions.parquet with row_id, prediction and, for classification, one
proba::<class> column per class (contracts.md); for a table of new rows also joined.csv,
those rows as written beside their predictions (joined.py: the download of "Predict a file").
With latencyRows N: latency.json, N single-row predictions timed (see measure_latency).
The model folder may be read-only (the worker's store): nothing is written into it.
"""

from __future__ import annotations

import json
import os
import time

import numpy as np

import pandas as pd
from trainyard_recipe import BadInput, class_key, emit, read_table
from trainyard_recipe.atomic import write_json_atomic

from recipes.tabular.feature_schema import conform
from recipes.tabular.joined import write_joined

PROBA_PREFIX = "proba::"


def load_model_dir(model_dir: str):
    predictor_dir = os.path.join(model_dir, "predictor")
    schema_path = os.path.join(model_dir, "feature_schema.json")
    training_path = os.path.join(model_dir, "training.json")
    for path in (predictor_dir, schema_path, training_path):
        if not os.path.exists(path):
            raise BadInput(f"model folder {model_dir} has no {os.path.basename(path)}; is it a train job's output?",
                           code="missing_input")
    with open(schema_path, encoding="utf-8") as handle:
        schema = json.load(handle)
    with open(training_path, encoding="utf-8") as handle:
        training = json.load(handle)
    return predictor_dir, schema, training


def features_path(inputs: dict) -> str:
    path = inputs.get("features")
    if not isinstance(path, str) or not path:
        raise BadInput("predict input field 'features' is required", code="missing_field")
    if os.path.isdir(path):
        path = os.path.join(path, "features.parquet")
    if not os.path.isfile(path):
        raise BadInput(f"no features file at {path}", code="missing_input")
    return path


def read_rows(inputs: dict) -> pd.DataFrame:
    """Rows indexed by row id."""
    path = features_path(inputs)
    if inputs.get("datasetFormat") is not None:
        return read_table(path, inputs["datasetFormat"])
    if not path.endswith(".parquet"):
        raise BadInput("features that are not a .parquet file need datasetFormat", code="invalid_input")
    frame = pd.read_parquet(path)
    if "row_id" not in frame.columns:
        raise BadInput(f"features file {path} has no row_id column", code="schema_mismatch")
    return frame.set_index("row_id", drop=True)


def predict_frame(predictor, rows: pd.DataFrame, problem_type: str) -> pd.DataFrame:
    """Shared by the predict job and the tests: the one way predictions are produced."""
    out = pd.DataFrame({"row_id": rows.index.to_numpy()})
    if problem_type == "regression":
        out["prediction"] = predictor.predict(rows).to_numpy()
        return out
    proba = predictor.predict_proba(rows, as_multiclass=True)
    out["prediction"] = predictor.predict_from_proba(proba).to_numpy()
    for label in predictor.class_labels:
        out[PROBA_PREFIX + class_key(label)] = proba[label].to_numpy(dtype="float64")
    return out


def measure_latency(predictor, rows: pd.DataFrame, problem_type: str, count: int) -> dict:
    """Single-row predictions timed the way a deployment answers one request: the model is
    loaded, one row goes through the same predict_frame. The first call is not measured
    (lazy imports and caches make it an outlier that a warm deployment never pays); rows
    are taken in turn, repeating when there are fewer than `count`."""
    predict_frame(predictor, rows.iloc[[0]], problem_type)
    times = []
    for i in range(count):
        one = rows.iloc[[i % len(rows)]]
        started = time.perf_counter()
        predict_frame(predictor, one, problem_type)
        times.append((time.perf_counter() - started) * 1000)
    return {"version": 1, "rows": count, "medianMs": round(float(np.median(times)), 3),
            "p95Ms": round(float(np.quantile(times, 0.95)), 3)}


def latency_rows(inputs: dict) -> int | None:
    count = inputs.get("latencyRows")
    if count is None:
        return None
    if isinstance(count, bool) or not isinstance(count, int) or not 1 <= count <= 200:
        raise BadInput("predict input field 'latencyRows' must be a whole number from 1 to 200", code="invalid_input")
    return count


def run_predict(ctx, inputs: dict) -> dict:
    emit(ctx, "phase", phase="preparing_data")
    model_dir = inputs.get("model")
    if not isinstance(model_dir, str) or not model_dir:
        raise BadInput("predict input field 'model' is required", code="missing_field")
    predictor_dir, schema, training = load_model_dir(model_dir)
    latency_count = latency_rows(inputs)
    rows = conform(read_rows(inputs), schema)
    if len(rows) == 0:
        raise BadInput("the file has no data rows under its header", code="header_only")
    emit(ctx, "phase", phase="evaluating")
    from autogluon.tabular import TabularPredictor

    predictor = TabularPredictor.load(predictor_dir, require_version_match=True, check_packages=False,
                                      verbosity=0)
    out = predict_frame(predictor, rows, training["task"])
    out.to_parquet(ctx.output_dir / "predictions.parquet", index=False)
    if inputs.get("datasetFormat") is not None:
        write_joined(ctx.output_dir / "joined.csv", features_path(inputs), inputs["datasetFormat"], out)
    result = {"rows": int(len(out)), "model": training.get("bestModel")}
    if latency_count is not None:
        latency = measure_latency(predictor, rows, training["task"], latency_count)
        write_json_atomic(ctx.output_dir / "latency.json", latency)
        emit(ctx, "log", message=f"one-row predictions: median {latency['medianMs']} ms, p95 {latency['p95Ms']} ms "
                                 f"({latency_count} timed)")
        result["latencyP95Ms"] = latency["p95Ms"]
    return result
