"""compare_receipts: a decision only between receipts with identical, intact contracts."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path

from evaluation.compare import compare_receipts
from evaluation.evaluator import contract_sha256

TRAINING = Path(__file__).resolve().parents[2]


def receipt(value: float, metric="accuracy", direction="higher_is_better", split="a" * 64, evaluator="evaluation@1"):
    contract = {"primaryMetric": metric, "direction": direction, "splitSha256": split,
                "evaluatorVersion": evaluator, "snapshotSha256": "b" * 64, "partition": "test"}
    return {"primaryMetric": metric, "direction": direction, "primaryValue": value,
            "evaluationContract": contract, "contractSha256": contract_sha256(contract)}


def test_higher_is_better_candidate_wins():
    decision = compare_receipts(receipt(0.95), receipt(0.44))
    assert decision["comparable"] and decision["better"]
    assert decision["improvement"] == 0.95 - 0.44


def test_lower_is_better_uses_the_direction():
    assert compare_receipts(receipt(500.0, "rmse", "lower_is_better"), receipt(3900.0, "rmse", "lower_is_better"))["better"]
    worse = compare_receipts(receipt(4000.0, "rmse", "lower_is_better"), receipt(3900.0, "rmse", "lower_is_better"))
    assert worse["comparable"] and worse["better"] is False and worse["improvement"] < 0


def test_a_tie_is_not_better():
    assert compare_receipts(receipt(0.5), receipt(0.5))["better"] is False


def test_different_contracts_are_not_comparable_and_say_why():
    decision = compare_receipts(receipt(0.99, split="c" * 64), receipt(0.4))
    assert decision == {"comparable": False, "better": None, "reason": "evaluation contracts differ in: splitSha256"}
    other_evaluator = compare_receipts(receipt(0.99, evaluator="evaluation@2"), receipt(0.4))
    assert not other_evaluator["comparable"] and "evaluatorVersion" in other_evaluator["reason"]


def test_an_edited_contract_no_longer_matches_its_hash():
    forged = receipt(0.99)
    forged["evaluationContract"]["partition"] = "validation"
    decision = compare_receipts(forged, receipt(0.4))
    assert not decision["comparable"] and "does not hash" in decision["reason"]
    changed_metric = copy.deepcopy(receipt(0.99))
    changed_metric["primaryMetric"] = "f1"
    assert not compare_receipts(changed_metric, receipt(0.4))["comparable"]


def test_cli_exit_codes(tmp_path):
    paths = {}
    for name, value in (("good", receipt(0.9)), ("bad", receipt(0.1)), ("other", receipt(0.9, split="d" * 64))):
        paths[name] = tmp_path / f"{name}.json"
        paths[name].write_text(json.dumps(value))

    def cli(a, b):
        return subprocess.run([sys.executable, "-m", "evaluation.compare", str(paths[a]), str(paths[b])],
                              cwd=TRAINING, capture_output=True, text=True)

    assert cli("good", "bad").returncode == 0
    assert cli("bad", "good").returncode == 3
    result = cli("other", "bad")
    assert result.returncode == 4 and json.loads(result.stdout)["comparable"] is False
