"""Exact match of an answer pattern: a regex whose first group is the answer (`#### (\\S+)`),
extracted from the reference and from each greedy generation."""

from __future__ import annotations

import re

from trainyard_recipe import BadInput


def answer_pattern(raw) -> re.Pattern | None:
    if raw in (None, ""):
        return None
    try:
        pattern = re.compile(raw)
    except (re.error, TypeError) as exc:
        raise BadInput(f"answerPattern is not a regular expression: {exc}", code="invalid_input",
                       details={"field": "answerPattern"}) from None
    if pattern.groups < 1:
        raise BadInput("answerPattern needs one group around the answer, e.g. '#### (\\S+)'", code="invalid_input",
                       details={"field": "answerPattern"})
    return pattern


def extract(pattern: re.Pattern, text: str) -> str | None:
    found = pattern.search(text)
    return found.group(1).strip() if found else None


def exact_match(pattern: re.Pattern, references: list[str], answers: list[str]) -> float:
    """The share of references with an answer that the generation's extracted answer equals."""
    wanted = [extract(pattern, ref) for ref in references]
    return sum(1 for w, a in zip(wanted, answers) if w is not None and extract(pattern, a) == w) / len(wanted)
