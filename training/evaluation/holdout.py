"""Job `holdout_compare`: two or more versions scored on a reserved holdout, on the same
rows, with a paired-bootstrap confidence interval of the difference (issue 32).

Input: {holdout: the holdout file, datasetFormat, labels: data.holdout_rows output,
        task, metric, positiveClass?, classes?,
        versions: [{version, predictions: tabular.predict output on those rows,
                    trainedRows: the version's trained_rows.txt}, …] (2 or more),
        resamples? (2000), confidence? (0.95), seed? (0)}
Output: holdout_compare.json {metric, direction, rows, excluded: {total, byVersion},
        results: [{version, value}], difference: {estimate, low, high, confidence,
        resamples, of: [first, second]}}.

A holdout row that any compared version learnt from (its normalised hash is in that
version's trained rows) is left out for every version, so all are scored on rows none of
them saw. `difference` is the second version's value minus the first's, in the metric's
units (its `direction` says which sign is better); the interval resamples the rows with
replacement and scores both versions on each resample, so it is the interval of a paired
difference, not of two separate scores.
"""

from __future__ import annotations

import numpy as np
from sklearn import metrics as skm
from trainyard_recipe import BadInput, class_key, emit
from trainyard_recipe.atomic import write_json_atomic
from trainyard_recipe.row_hashes import read_rows_file, row_hashes
from trainyard_recipe.tables import normalize_table_format, read_table

from evaluation import metrics as m
from evaluation.inputs import require, require_task, resolve_file
from evaluation.score import minority_class
from evaluation.tables import join_predictions, read_parquet

MIN_ROWS = 10


def _metric(metric: str, actual: np.ndarray, predicted: np.ndarray, proba: np.ndarray | None,
            classes: list[str], positive: str | None, task: str) -> float:
    if metric == "rmse":
        return float(np.sqrt(np.mean((predicted - actual) ** 2)))
    if metric == "mae":
        return float(np.mean(np.abs(predicted - actual)))
    if metric == "r2":
        return float(skm.r2_score(actual, predicted))
    if metric == "accuracy":
        return float(np.mean(actual == predicted))
    if metric == "balanced_accuracy":
        return float(skm.balanced_accuracy_score(actual, predicted))
    if metric == "f1":
        if task == "binary":
            return float(skm.f1_score(actual, predicted, pos_label=positive, average="binary", zero_division=0))
        return float(skm.f1_score(actual, predicted, labels=classes, average="macro", zero_division=0))
    if proba is None:
        raise BadInput(f"{metric} needs class probabilities, which these predictions do not carry", code="metric_unavailable")
    if metric == "log_loss":
        return float(skm.log_loss(actual, proba, labels=classes))
    if task == "binary":
        return float(skm.roc_auc_score(actual == positive, proba[:, classes.index(positive)]))
    return float(skm.roc_auc_score(actual, proba, labels=classes, multi_class="ovr", average="macro"))


class _Scored:
    """One version's predictions on the kept rows, ready to score on any resample."""

    def __init__(self, joined, keep: np.ndarray, task: str, classes: list[str]):
        self.task = task
        if task == "regression":
            self.actual = joined.actual.to_numpy(dtype=float)[keep]
            self.predicted = joined.predicted.to_numpy(dtype=float)[keep]
            self.proba = None
        else:
            self.actual = np.array([class_key(v) for v in joined.actual.tolist()], dtype=object)[keep]
            self.predicted = np.array([class_key(v) for v in joined.predicted.tolist()], dtype=object)[keep]
            self.proba = m.proba_matrix(joined.proba, classes)[keep] if joined.proba is not None else None

    def value(self, metric, classes, positive, rows: np.ndarray | None = None) -> float:
        pick = (lambda a: a) if rows is None else (lambda a: a[rows])
        proba = None if self.proba is None else pick(self.proba)
        return _metric(metric, pick(self.actual), pick(self.predicted), proba, classes, positive, self.task)


def _overlap(holdout_frame, trained_rows_path: str, version) -> np.ndarray:
    try:
        columns, trained = read_rows_file(trained_rows_path)
    except (OSError, ValueError) as error:
        raise BadInput(f"version {version}'s trained rows cannot be read: {error}", code="unreadable_input")
    missing = [c for c in columns if c not in holdout_frame.columns]
    if missing:
        raise BadInput(f"the holdout lacks columns version {version} was trained with: {missing[:10]}; "
                       "a holdout must have every column of the data", code="schema_mismatch")
    return np.isin(row_hashes(holdout_frame, columns), list(trained))


def run_holdout_compare(ctx, inputs: dict) -> dict:
    emit(ctx, "phase", phase="evaluating")
    task = require_task(inputs)
    metric = require(inputs, "metric")
    if metric not in m.metrics_for_task(task):
        raise BadInput(f"metric {metric!r} is not one of {m.metrics_for_task(task)} for a {task} task", code="invalid_input")
    versions = require(inputs, "versions", list)
    if len(versions) < 2:
        raise BadInput("compare at least two versions", code="invalid_input")
    resamples = int(inputs.get("resamples", 2000))
    confidence = float(inputs.get("confidence", 0.95))
    if not 100 <= resamples <= 100_000 or not 0.5 < confidence < 1:
        raise BadInput("resamples must be 100..100000 and confidence between 0.5 and 1", code="invalid_input")
    holdout_path = require(inputs, "holdout")
    holdout_frame = read_table(holdout_path, normalize_table_format(inputs.get("datasetFormat")))
    holdout_frame.columns = [str(c) for c in holdout_frame.columns]
    labels = read_parquet(resolve_file(require(inputs, "labels"), "labels.parquet", "labels"), "labels")
    row_ids = np.sort(labels["row_id"].to_numpy())

    seen_by = {}
    seen = np.zeros(len(row_ids), dtype=bool)
    joined_all = []
    for entry in versions:
        version = require(entry, "version", int)
        joined = join_predictions(read_parquet(resolve_file(require(entry, "predictions"), "predictions.parquet", "predictions"),
                                               "predictions"), labels)
        overlap = _overlap(holdout_frame, require(entry, "trainedRows"), version)[row_ids]
        seen_by[str(version)] = int(overlap.sum())
        seen |= overlap
        joined_all.append((version, joined))
    keep = ~seen
    if keep.sum() < MIN_ROWS:
        raise BadInput(f"only {int(keep.sum())} holdout rows are unseen by every version (at least {MIN_ROWS} are needed); "
                       f"rows each version learnt from: {seen_by}", code="too_few_rows")

    classes: list[str] = []
    positive = None
    if task != "regression":
        given = inputs.get("classes")
        seen_classes = {class_key(v) for _, j in joined_all for v in j.actual.tolist() + j.predicted.tolist()}
        classes = [class_key(c) for c in given] if given else []
        classes += sorted(seen_classes - set(classes))
        if task == "binary":
            actual = [class_key(v) for v in joined_all[0][1].actual.tolist()]
            positive = class_key(inputs["positiveClass"]) if inputs.get("positiveClass") is not None else minority_class(actual, classes)
    scored = [(v, _Scored(j, keep, task, classes)) for v, j in joined_all]
    results = [{"version": v, "value": s.value(metric, classes, positive)} for v, s in scored]

    rng = np.random.default_rng(int(inputs.get("seed", 0)))
    n = int(keep.sum())
    first, second = scored[0][1], scored[1][1]
    diffs = []
    for _ in range(resamples):
        rows = rng.integers(0, n, size=n)
        try:
            diffs.append(second.value(metric, classes, positive, rows) - first.value(metric, classes, positive, rows))
        except ValueError:  # a resample with one class has no ROC AUC: it says nothing, skip it
            continue
    if len(diffs) < resamples // 2:
        raise BadInput(f"{metric} could not be computed on most resamples of {n} rows", code="metric_unavailable")
    tail = (1 - confidence) / 2
    low, high = np.quantile(np.array(diffs), [tail, 1 - tail])
    out = {
        "version": 1,
        "metric": metric,
        "direction": m.direction_of(metric),
        "rows": n,
        "excluded": {"total": int(seen.sum()), "byVersion": seen_by},
        "results": results,
        "difference": {"estimate": results[1]["value"] - results[0]["value"], "low": float(low), "high": float(high),
                       "confidence": confidence, "resamples": len(diffs), "of": [results[0]["version"], results[1]["version"]]},
    }
    write_json_atomic(ctx.output_dir / "holdout_compare.json", out)
    emit(ctx, "log", message=f"holdout: {n:,} rows unseen by every version ({int(seen.sum()):,} left out)")
    return {"rows": n, "excluded": int(seen.sum())}
