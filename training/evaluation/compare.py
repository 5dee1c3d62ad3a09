"""Decide whether a candidate beat the baseline, from two receipts only.

A comparison is made only when both receipts carry the same evaluation contract (same
primary metric and direction, split, evaluator version, snapshot, partition) and each
contract still hashes to its recorded contractSha256; otherwise the answer is
"not comparable" with the reason, and nothing may be promoted on it.

CLI: python -m evaluation.compare CANDIDATE_RECEIPT BASELINE_RECEIPT
     prints the decision as JSON; exit 0 better, 3 not better, 4 not comparable.
"""

from __future__ import annotations

import json
import math
import sys

from evaluation.evaluator import contract_sha256

HIGHER = "higher_is_better"
LOWER = "lower_is_better"


def _contract_problem(receipt: dict, name: str) -> str | None:
    contract = receipt.get("evaluationContract")
    if not isinstance(contract, dict):
        return f"{name} receipt has no evaluationContract"
    if contract_sha256(contract) != receipt.get("contractSha256"):
        return f"{name} receipt's evaluationContract does not hash to its contractSha256"
    if contract.get("primaryMetric") != receipt.get("primaryMetric") or contract.get("direction") != receipt.get("direction"):
        return f"{name} receipt's primary metric or direction differs from its contract"
    value = receipt.get("primaryValue")
    if not isinstance(value, (int, float)) or isinstance(value, bool) or not math.isfinite(value):
        return f"{name} receipt has no finite primaryValue"
    return None


def compare_receipts(candidate: dict, baseline: dict, min_improvement: float = 0.0) -> dict:
    """Returns {comparable, better, reason, primaryMetric, direction, candidate, baseline,
    improvement}. `improvement` is signed so that positive always means better;
    `better` requires improvement > min_improvement (strictly: a tie is not better)."""
    for receipt, name in ((candidate, "candidate"), (baseline, "baseline")):
        problem = _contract_problem(receipt, name)
        if problem:
            return {"comparable": False, "better": None, "reason": problem}
    if candidate["contractSha256"] != baseline["contractSha256"]:
        differing = sorted(
            key for key in set(candidate["evaluationContract"]) | set(baseline["evaluationContract"])
            if candidate["evaluationContract"].get(key) != baseline["evaluationContract"].get(key)
        )
        return {"comparable": False, "better": None,
                "reason": "evaluation contracts differ in: " + ", ".join(differing)}
    direction = candidate["direction"]
    if direction not in (HIGHER, LOWER):
        return {"comparable": False, "better": None, "reason": f"unknown direction {direction!r}"}
    cand, base = float(candidate["primaryValue"]), float(baseline["primaryValue"])
    improvement = cand - base if direction == HIGHER else base - cand
    better = improvement > min_improvement
    return {
        "comparable": True,
        "better": better,
        "reason": ("candidate beats baseline" if better else "candidate does not beat baseline")
        + f" on {candidate['primaryMetric']} ({cand:.6g} vs {base:.6g}, {direction})",
        "primaryMetric": candidate["primaryMetric"],
        "direction": direction,
        "candidate": cand,
        "baseline": base,
        "improvement": improvement,
        "contractSha256": candidate["contractSha256"],
    }


def main(argv: list[str]) -> int:
    if len(argv) != 2:
        print("usage: python -m evaluation.compare CANDIDATE_RECEIPT BASELINE_RECEIPT", file=sys.stderr)
        return 2
    with open(argv[0], encoding="utf-8") as c, open(argv[1], encoding="utf-8") as b:
        decision = compare_receipts(json.load(c), json.load(b))
    print(json.dumps(decision, indent=2))
    if not decision["comparable"]:
        return 4
    return 0 if decision["better"] else 3


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
