"""Job check_data: JSONL examples -> normalised conversations for training and evaluation,
and the checks report a user reads before training.

Output: train.jsonl and eval.jsonl ({"messages": [...]} per line), checks.json, and
trained_prompts.txt: the SHA-256 of every distinct normalised prompt the fine-tune trains and
is evaluated on (a JSON header line, then the sorted hashes), the export's exclusion evidence
that a registered version keeps (its hash in checks.json).
The project's reserved holdouts of examples (input `holdouts`: their files) are kept out of
both, before anything else: an example whose normalised prompt is a holdout's is dropped,
and checks.json's `holdout` counts them.
Refusals: no_usable_example, eval_overlaps_train (every evaluation prompt is also a training
prompt), template_cannot_render (the model's chat template fails on an example).
"""

from __future__ import annotations

import hashlib
import json
import random
import statistics
from pathlib import Path

from trainyard_recipe import BadInput, JobContext, requires, sha256_file
from trainyard_recipe.atomic import write_json_atomic
from trainyard_recipe.events import phase

from .conversations import Example
from .fields import existing_path, number
from .model_folder import resolve_model_dir
from .profile_examples import LISTED, examples_report, preview, problems_json, read_usable, unique
from evaluation_lm.template import load_tokenizer, tokenise

PREVIEW = 5


def split_by_prompt(examples: list[Example], fraction: float, seed: int) -> tuple[list[Example], list[Example]]:
    """Seeded split of whole prompt groups, so one prompt never lands on both sides."""
    groups: dict[str, list[Example]] = {}
    for example in examples:
        groups.setdefault(example.prompt_key(), []).append(example)
    keys = sorted(groups)
    random.Random(seed).shuffle(keys)
    n_eval = max(1, round(fraction * len(keys))) if len(keys) > 1 else 0
    eval_keys = set(keys[:n_eval])
    train = [e for e in examples if e.prompt_key() not in eval_keys]
    held = [e for e in examples if e.prompt_key() in eval_keys]
    return train, held


def holdout_prompts(job_input: dict) -> set[str]:
    """The normalised prompts of every reserved holdout file in the input."""
    raw = job_input.get("holdouts") or []
    if not isinstance(raw, list) or not all(isinstance(p, str) and p for p in raw):
        raise BadInput("holdouts must be a list of file paths", code="invalid_input")
    prompts: set[str] = set()
    for value in raw:
        path = Path(value)
        if not path.is_file():
            raise BadInput(f"holdouts: {value} is not a file", code="not_found", details={"field": "holdouts"})
        examples, _ = read_usable(path, "holdout")
        prompts |= {e.prompt_key() for e in examples}
    return prompts


def keep_out(examples: list[Example], prompts: set[str]) -> tuple[list[Example], list[Example]]:
    """(the examples whose prompt no holdout has, those it has)."""
    return [e for e in examples if e.prompt_key() not in prompts], [e for e in examples if e.prompt_key() in prompts]


def _lengths(tokenizer, examples: list[Example], max_length: int) -> dict:
    lengths, over, no_answer_left = [], 0, 0
    for example in examples:
        item = tokenise(tokenizer, example.as_json()["messages"])
        lengths.append(len(item.input_ids))
        over += len(item.input_ids) > max_length
        no_answer_left += item.prompt_length >= max_length
    ordered = sorted(lengths)
    return {
        "count": len(lengths), "min": ordered[0], "max": ordered[-1], "mean": round(statistics.fmean(lengths), 1),
        "p50": ordered[len(ordered) // 2], "p95": ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))],
        "tokens": sum(lengths), "overMaxLength": over, "droppedNoAnswerLeft": no_answer_left,
    }


PROMPTS_FILE = "trained_prompts.txt"


def prompt_hash(example: Example) -> str:
    """What the exclusion evidence keeps of a prompt: the SHA-256 of its normalised text."""
    return hashlib.sha256(example.prompt_key().encode("utf-8")).hexdigest()


def write_prompts_file(path: Path, examples: list[Example]) -> int:
    """A JSON header line (version, rule, how many), then the sorted distinct prompt hashes."""
    unique = sorted({prompt_hash(e) for e in examples})
    lines = [json.dumps({"version": 1, "rule": "normalised prompt", "prompts": len(unique)}), *unique]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return len(unique)


def write_jsonl(path: Path, examples: list[Example]) -> None:
    path.write_text("".join(json.dumps(e.as_json(), ensure_ascii=False) + "\n" for e in examples), encoding="utf-8")


@requires("model", "data")
def run_check_data(ctx: JobContext, job_input: dict) -> dict:
    model_dir = resolve_model_dir(existing_path(job_input, "model"))
    data_path = existing_path(job_input, "data")
    eval_path = existing_path(job_input, "eval", required=False)
    fraction = number(job_input, "evalFraction", 0.1, minimum=0.01, maximum=0.5)
    seed = number(job_input, "seed", 0, minimum=0, integer=True)
    max_length = number(job_input, "maxLength", 512, minimum=16, maximum=32768, integer=True)
    phase(ctx, "preparing_data", step="check_data")

    examples, problems = read_usable(data_path, "training")
    reserved = holdout_prompts(job_input)
    kept, duplicates = unique(examples)
    report = examples_report(examples, problems, duplicates)
    kept, held_out = keep_out(kept, reserved)
    eval_held_out: list[Example] = []
    if not kept:
        raise BadInput(f"every example's prompt is in the project's reserved holdout ({len(held_out)} examples), so "
                       "nothing is left to train on", code="no_usable_example")
    if eval_path is not None:
        held, eval_problems = read_usable(eval_path, "evaluation")
        held, _ = unique(held)
        held, eval_held_out = keep_out(held, reserved)
        if not held:
            raise BadInput(f"every prompt of the evaluation file {eval_path.name} is in the project's reserved holdout",
                           code="no_usable_example")
        eval_prompts = {e.prompt_key() for e in held}
        overlapping = [e for e in kept if e.prompt_key() in eval_prompts]
        train = [e for e in kept if e.prompt_key() not in eval_prompts]
        if not train or {e.prompt_key() for e in overlapping} >= eval_prompts:
            raise BadInput(f"every evaluation prompt in {eval_path.name} is also a training prompt, so the evaluation "
                           "would measure memorisation. Use held-out examples the model does not train on.",
                           code="eval_overlaps_train", details={"evalPrompts": len(eval_prompts)})
        report["split"] = {"strategy": "user_file", "evalFile": eval_path.name,
                           "evalProblems": problems_json(eval_problems)}
        # The user's evaluation file stays as given (comparable across runs); overlapping
        # training examples go instead.
        report["overlap"] = {"removedFromTraining": len(overlapping),
                             "lines": [e.line for e in overlapping[:LISTED]], "rule": "normalised prompt"}
    else:
        train, held = split_by_prompt(kept, fraction, seed)
        if not train or not held:
            raise BadInput("there are too few distinct prompts to hold some out for evaluation; add examples or "
                           "give an evaluation file.", code="no_usable_example")
        report["split"] = {"strategy": "random_by_prompt", "evalFraction": fraction, "seed": seed,
                           "dedup": "exact_duplicates_first_kept"}
        report["overlap"] = {"removedFromTraining": 0, "lines": [], "rule": "normalised prompt"}

    if reserved:
        report["holdout"] = {"holdouts": len(job_input["holdouts"]), "removed": len(held_out) + len(eval_held_out),
                             "lines": [e.line for e in held_out[:LISTED]], "rule": "normalised prompt"}
    tokenizer = load_tokenizer(model_dir)
    report["maxLength"] = max_length
    report["truncation"] = ("examples over maxLength keep their first maxLength tokens (the end of the answer is cut); "
                            "an example whose prompt alone fills maxLength has no answer left and is dropped")
    report["tokens"] = {"train": _lengths(tokenizer, train, max_length), "eval": _lengths(tokenizer, held, max_length)}
    report["counts"] = {"train": len(train), "eval": len(held)}
    report["preview"] = preview(train, PREVIEW)
    write_jsonl(ctx.output_dir / "train.jsonl", train)
    write_jsonl(ctx.output_dir / "eval.jsonl", held)
    write_prompts_file(ctx.output_dir / PROMPTS_FILE, train + held)
    report["trainedPromptsFile"] = PROMPTS_FILE
    report["trainedPromptsSha256"] = sha256_file(ctx.output_dir / PROMPTS_FILE)
    write_json_atomic(ctx.output_dir / "checks.json", report)
    return {"trainExamples": len(train), "evalExamples": len(held), "problemLines": len(problems),
            "duplicates": len(duplicates), "overMaxLength": report["tokens"]["train"]["overMaxLength"]}
