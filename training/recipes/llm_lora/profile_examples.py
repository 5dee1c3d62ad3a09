"""Job profile_examples: what a JSONL file of examples holds, read without any model.

The wizard shows it when a dataset is uploaded, before a base model is chosen: the shapes
found, usable and problem lines (with numbers), duplicates, and the first conversations as
they will be trained. check_data reports the same facts (it calls these functions) and adds
what needs a tokenizer. Imports nothing heavy (no torch, no transformers): it must be fast.
Output: examples.json. Refuses: no_usable_example.
"""

from __future__ import annotations

from pathlib import Path

from trainyard_recipe import BadInput, JobContext, requires
from trainyard_recipe.atomic import write_json_atomic
from trainyard_recipe.events import phase

from .conversations import Example, LineProblem, read_examples
from .fields import existing_path, number

LISTED = 50
DUPLICATE_RULE = "exact duplicates (case and whitespace normalised): the first is kept"


def unique(examples: list[Example]) -> tuple[list[Example], list[dict]]:
    """First of each exact duplicate (normalised text) kept; the others listed by line."""
    seen: dict[str, int] = {}
    kept, duplicates = [], []
    for example in examples:
        first = seen.setdefault(example.key(), example.line)
        if first == example.line:
            kept.append(example)
        else:
            duplicates.append({"line": example.line, "duplicateOf": first})
    return kept, duplicates


def problems_json(problems: list[LineProblem]) -> dict:
    return {"count": len(problems), "lines": [{"line": p.line, "problem": p.problem} for p in problems[:LISTED]]}


def read_usable(path: Path, which: str) -> tuple[list[Example], list[LineProblem]]:
    examples, problems = read_examples(path)
    if not examples:
        first = f" (line {problems[0].line}: {problems[0].problem})" if problems else " (the file is empty)"
        raise BadInput(f"the {which} file {path.name} has no usable example{first}. Each line must be a JSON object "
                       "with prompt/completion, messages, or instruction/input/output.", code="no_usable_example",
                       details=problems_json(problems))
    return examples, problems


def examples_report(examples: list[Example], problems: list[LineProblem], duplicates: list[dict]) -> dict:
    """The part of examples.json and checks.json that needs no model."""
    return {"version": 1, "formats": sorted({e.format for e in examples}),
            "lines": {"usable": len(examples), "problems": problems_json(problems)},
            "duplicates": {"count": len(duplicates), "first": duplicates[:LISTED], "rule": DUPLICATE_RULE}}


def preview(examples: list[Example], count: int) -> list[dict]:
    return [{"line": e.line, **e.as_json()} for e in examples[:count]]


@requires("data")
def run_profile_examples(ctx: JobContext, job_input: dict) -> dict:
    data_path = existing_path(job_input, "data")
    if not data_path.is_file():
        raise BadInput(f"data: {data_path} is a folder, not a JSONL file", code="invalid_input",
                       details={"field": "data"})
    count = number(job_input, "maxPreview", 5, minimum=0, maximum=50, integer=True)
    phase(ctx, "preparing_data", step="profile_examples")
    examples, problems = read_usable(data_path, "examples")
    _, duplicates = unique(examples)
    report = {**examples_report(examples, problems, duplicates), "preview": preview(examples, count)}
    write_json_atomic(ctx.output_dir / "examples.json", report)
    return {"usable": len(examples), "problemLines": len(problems), "duplicates": len(duplicates),
            "formats": report["formats"]}
