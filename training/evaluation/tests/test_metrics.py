"""Metric values, names and directions against small hand-computed examples (no processes)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest

from evaluation import metrics as m
from evaluation.score import minority_class, score_classification, score_regression
from evaluation.tables import class_key, join_predictions
from trainyard_recipe import BadInput


def joined(actual, predicted, proba=None, row_ids=None):
    row_ids = list(range(len(actual))) if row_ids is None else row_ids
    predictions = pd.DataFrame({"row_id": row_ids, "prediction": predicted})
    for cls, values in (proba or {}).items():
        predictions[f"proba::{cls}"] = values
    return join_predictions(predictions, pd.DataFrame({"row_id": row_ids, "label": actual}))


def test_binary_metrics_match_hand_computation():
    # actual:    1 1 1 0 0 0 0 0 ; predicted: 1 1 0 1 0 0 0 0
    # TP=2 FN=1 FP=1 TN=4 -> accuracy 6/8, precision 2/3, recall 2/3, f1 2/3
    # balanced accuracy = (2/3 + 4/5) / 2
    actual = [1, 1, 1, 0, 0, 0, 0, 0]
    predicted = [1, 1, 0, 1, 0, 0, 0, 0]
    p1 = [0.9, 0.8, 0.4, 0.7, 0.3, 0.2, 0.1, 0.05]
    body = score_classification(joined(actual, predicted, {"0": [1 - p for p in p1], "1": p1}),
                                "binary", None, None)
    values = body["metrics"]
    assert body["positiveClass"] == "1"  # the minority class
    assert values["accuracy"] == pytest.approx(6 / 8)
    assert values["f1"] == pytest.approx(2 / 3)
    assert values["balanced_accuracy"] == pytest.approx((2 / 3 + 4 / 5) / 2)
    # ROC AUC = share of (positive, negative) pairs ranked correctly: positives .9 .8 .4 vs
    # negatives .7 .3 .2 .1 .05 -> 5 + 5 + 4 = 14 of 15
    assert values["roc_auc"] == pytest.approx(14 / 15)
    expected_log_loss = -np.mean([math.log(p) for p in (0.9, 0.8, 0.4)] + [math.log(1 - p) for p in (0.7, 0.3, 0.2, 0.1, 0.05)])
    assert values["log_loss"] == pytest.approx(expected_log_loss)
    assert body["confusionMatrix"] == {"labels": ["0", "1"], "matrix": [[4, 1], [1, 2]]}
    assert body["perClass"]["1"]["precision"] == pytest.approx(2 / 3)
    worst = body["worstExamples"]
    # mistakes only, the most confident first: row 3 gave its true class .3, row 2 gave .4
    assert [w["rowId"] for w in worst] == [3, 2]
    assert worst[0]["actual"] == "0" and worst[0]["predicted"] == "1" and worst[0]["confidence"] == pytest.approx(0.7)


def test_binary_f1_follows_the_chosen_positive_class():
    actual = ["yes", "yes", "yes", "no", "no"]
    predicted = ["yes", "no", "no", "no", "no"]
    for_yes = score_classification(joined(actual, predicted), "binary", "yes", None)["metrics"]["f1"]
    for_no = score_classification(joined(actual, predicted), "binary", "no", None)["metrics"]["f1"]
    assert for_yes == pytest.approx(2 * 1 * (1 / 3) / (1 + 1 / 3))  # precision 1, recall 1/3
    assert for_no == pytest.approx(2 * (2 / 4) * 1 / (2 / 4 + 1))  # precision 2/4, recall 1


def test_multiclass_f1_is_macro_and_roc_auc_is_macro_ovr():
    actual = ["a", "a", "b", "b", "c", "c"]
    predicted = ["a", "b", "b", "b", "c", "a"]
    proba = {"a": [.7, .3, .1, .2, .1, .5], "b": [.2, .6, .8, .7, .1, .2], "c": [.1, .1, .1, .1, .8, .3]}
    values = score_classification(joined(actual, predicted, proba), "multiclass", None, None)["metrics"]
    # per class f1: a: p=1/2 r=1/2 -> .5 ; b: p=2/3 r=1 -> .8 ; c: p=1 r=1/2 -> 2/3
    assert values["f1"] == pytest.approx((0.5 + 0.8 + 2 / 3) / 3)
    assert values["accuracy"] == pytest.approx(4 / 6)
    # one-vs-rest AUCs: a: positives .7 .3 vs .1 .2 .1 .5 -> (4 + 3)/8 ; b: .8 .7 vs .2 .6 .1 .2 -> 1 ;
    # c: .8 .3 vs .1 .1 .1 .1 -> 1
    assert values["roc_auc"] == pytest.approx((7 / 8 + 1 + 1) / 3)


def test_missing_probabilities_leave_probability_metrics_empty_with_a_reason():
    body = score_classification(joined(["a", "b", "c"], ["a", "b", "b"]), "multiclass", None, None)
    assert body["metrics"]["roc_auc"] is None and body["metrics"]["log_loss"] is None
    assert "probabilities" in body["notes"]["roc_auc"]


def test_regression_metrics_and_residuals():
    body = score_regression(joined([1.0, 2.0, 3.0, 4.0], [1.5, 2.0, 2.0, 6.0]))
    values = body["metrics"]
    assert values["mae"] == pytest.approx((0.5 + 0 + 1 + 2) / 4)
    assert values["rmse"] == pytest.approx(math.sqrt((0.25 + 0 + 1 + 4) / 4))
    assert values["r2"] == pytest.approx(1 - 5.25 / 5.0)
    assert body["residuals"]["quantiles"]["q50"] == pytest.approx(0.25)  # residuals .5 0 -1 2
    assert body["worstExamples"][0] == {"rowId": 3, "actual": 4.0, "predicted": 6.0, "confidence": None,
                                        "absoluteError": 2.0}


@pytest.mark.parametrize("metric,direction", [
    ("accuracy", "higher_is_better"), ("balanced_accuracy", "higher_is_better"), ("f1", "higher_is_better"),
    ("roc_auc", "higher_is_better"), ("log_loss", "lower_is_better"), ("rmse", "lower_is_better"),
    ("mae", "lower_is_better"), ("r2", "higher_is_better")])
def test_direction_of_each_metric(metric, direction):
    assert m.direction_of(metric) == direction


def test_class_keys_unify_int_float_and_string_labels():
    assert class_key(1) == class_key(1.0) == class_key("1") == "1"
    assert class_key(np.int64(0)) == "0" and class_key(True) == "True" and class_key(0.5) == "0.5"


def test_minority_class_breaks_ties_towards_the_last_class():
    assert minority_class(["a", "b", "b"], ["a", "b"]) == "a"
    assert minority_class(["0", "1"], ["0", "1"]) == "1"


def test_rows_must_match_exactly():
    predictions = pd.DataFrame({"row_id": [0, 1, 2], "prediction": ["a", "b", "a"]})
    with pytest.raises(BadInput) as missing:
        join_predictions(predictions.iloc[:2], pd.DataFrame({"row_id": [0, 1, 2], "label": ["a", "b", "a"]}))
    assert missing.value.code == "row_mismatch" and "1 missing" in missing.value.message
    with pytest.raises(BadInput) as extra:
        join_predictions(predictions, pd.DataFrame({"row_id": [0, 1], "label": ["a", "b"]}))
    assert "1 extra" in extra.value.message
