"""Job `score`: join predictions with labels and write the evaluation receipt.

Input: {predictions, labels, task, metric, positiveClass?, classes?, partition? (test),
        contract: {snapshotSha256, splitSha256, exportSha256?}}
Output: receipt.json (documented in training/evaluation/README.md).
"""

from __future__ import annotations

import numpy as np
from trainyard_recipe import BadInput, emit, sha256_file
from trainyard_recipe.atomic import write_json_atomic

from evaluation import metrics as m
from evaluation.evaluator import contract_sha256, evaluator_identity
from evaluation.inputs import optional_sha, require, require_task, resolve_file
from evaluation.tables import Joined, class_key, join_predictions, read_parquet

RECEIPT_VERSION = 1
MAX_WORST = 10


def run_score(ctx, inputs: dict) -> dict:
    emit(ctx, "phase", phase="evaluating")
    task = require_task(inputs)
    metric = require(inputs, "metric")
    if metric not in m.metrics_for_task(task):
        raise BadInput(f"metric {metric!r} is not one of {m.metrics_for_task(task)} for a {task} task", code="invalid_input")
    partition = inputs.get("partition", "test")
    if partition not in ("validation", "test"):
        raise BadInput(f"partition must be validation or test, not {partition!r}", code="invalid_input")
    contract_in = require(inputs, "contract", dict)
    snapshot_sha = optional_sha(contract_in.get("snapshotSha256"), "snapshotSha256", True)
    split_sha = optional_sha(contract_in.get("splitSha256"), "splitSha256", True)
    export_sha = optional_sha(contract_in.get("exportSha256"), "exportSha256", False)
    predictions_path = resolve_file(require(inputs, "predictions"), "predictions.parquet", "predictions")
    labels_path = resolve_file(require(inputs, "labels"), "labels.parquet", "labels")
    joined = join_predictions(read_parquet(predictions_path, "predictions"), read_parquet(labels_path, "labels"))
    if len(joined.row_id) == 0:
        raise BadInput("labels hold no rows to score", code="empty_input")

    if task == "regression":
        body = score_regression(joined)
    else:
        body = score_classification(joined, task, inputs.get("positiveClass"), inputs.get("classes"))
    primary_value = body["metrics"].get(metric)
    if primary_value is None:
        reason = body["notes"].get(metric, "not computable")
        raise BadInput(f"primary metric {metric!r} cannot be computed: {reason}", code="metric_unavailable")

    evaluator = evaluator_identity()
    direction = m.direction_of(metric)
    contract = {
        "primaryMetric": metric,
        "direction": direction,
        "splitSha256": split_sha,
        "evaluatorVersion": evaluator["version"],
        "snapshotSha256": snapshot_sha,
        "partition": partition,
    }
    receipt = {
        "receiptVersion": RECEIPT_VERSION,
        "task": task,
        "primaryMetric": metric,
        "direction": direction,
        "primaryValue": primary_value,
        "positiveClass": body.get("positiveClass"),
        "rows": int(len(joined.row_id)),
        **{k: v for k, v in body.items() if k != "positiveClass"},
        "evaluator": evaluator,
        "hashes": {
            "exportSha256": export_sha,
            "snapshotSha256": snapshot_sha,
            "splitSha256": split_sha,
            "predictionsSha256": sha256_file(predictions_path),
            "labelsSha256": sha256_file(labels_path),
        },
        "evaluationContract": contract,
        "contractSha256": contract_sha256(contract),
    }
    write_json_atomic(ctx.output_dir / "receipt.json", receipt)
    emit(ctx, "metric", name=metric, value=primary_value, partition=partition)
    return {"primaryMetric": metric, "primaryValue": primary_value, "direction": direction,
            "contractSha256": receipt["contractSha256"], "rows": receipt["rows"]}


def score_regression(joined: Joined) -> dict:
    try:
        actual = joined.actual.to_numpy(dtype=float)
        predicted = joined.predicted.to_numpy(dtype=float)
    except (TypeError, ValueError) as error:
        raise BadInput(f"regression labels and predictions must be numbers: {error}", code="schema_mismatch")
    if not np.isfinite(predicted).all():
        raise BadInput("predictions contain missing or infinite values", code="invalid_predictions")
    values, notes = m.regression_metrics(actual, predicted)
    error = np.abs(predicted - actual)
    worst = np.argsort(-error, kind="stable")[:MAX_WORST]
    return {
        "metrics": values,
        "notes": notes,
        "confusionMatrix": None,
        "perClass": None,
        "residuals": m.residual_summary(joined.row_id, actual, predicted),
        "worstExamples": [
            {"rowId": int(joined.row_id[i]), "actual": float(actual[i]), "predicted": float(predicted[i]),
             "confidence": None, "absoluteError": float(error[i])}
            for i in worst
        ],
    }


def score_classification(joined: Joined, task: str, positive_in, classes_in) -> dict:
    actual = [class_key(v) for v in joined.actual.tolist()]
    predicted = [class_key(v) for v in joined.predicted.tolist()]
    proba = joined.proba
    if classes_in is not None:
        classes = [class_key(c) for c in classes_in]
    else:
        classes = sorted(set(actual) | set(predicted) | set(proba.columns if proba is not None else []))
    classes += sorted((set(actual) | set(predicted)) - set(classes))  # never drop a seen class
    positive = None
    if task == "binary":
        if len(classes) != 2:
            raise BadInput(f"a binary task needs exactly 2 classes, found {classes}", code="invalid_input")
        positive = class_key(positive_in) if positive_in is not None else minority_class(actual, classes)
        if positive not in classes:
            raise BadInput(f"positiveClass {positive!r} is not one of the classes {classes}", code="invalid_input")
    values, notes = m.classification_metrics(actual, predicted, proba, classes, positive, task)
    return {
        "positiveClass": positive,
        "classes": classes,
        "metrics": values,
        "notes": notes,
        "confusionMatrix": m.confusion(actual, predicted, classes),
        "perClass": m.per_class_scores(actual, predicted, classes),
        "residuals": None,
        "worstExamples": worst_classified(joined, actual, predicted, classes),
    }


def minority_class(actual: list[str], classes: list[str]) -> str:
    """DESIGN.md: a binary task's positive class is the minority class unless the user picks."""
    counts = {c: actual.count(c) for c in classes}
    ordered = sorted(classes)
    # a tie goes to the class sorting last ("1" over "0", "yes" over "no")
    return min(ordered, key=lambda c: (counts[c], -ordered.index(c)))


def worst_classified(joined: Joined, actual: list[str], predicted: list[str], classes: list[str]) -> list[dict]:
    """Most confident mistakes first: rows ranked by the probability given to the true
    class (lowest first); without probabilities, the misclassified rows in row order."""
    n = len(actual)
    if joined.proba is not None:
        matrix = m.proba_matrix(joined.proba, classes)
        true_p = np.array([matrix[i, classes.index(actual[i])] for i in range(n)])
        order = np.argsort(true_p, kind="stable")
        confidence = [float(matrix[i, classes.index(predicted[i])]) for i in range(n)]
    else:
        order = np.array([i for i in range(n) if actual[i] != predicted[i]], dtype=int)
        confidence = [None] * n
    wrong_first = [i for i in order if actual[i] != predicted[i]][:MAX_WORST]
    return [
        {"rowId": int(joined.row_id[i]), "actual": actual[i], "predicted": predicted[i], "confidence": confidence[i]}
        for i in wrong_first
    ]
