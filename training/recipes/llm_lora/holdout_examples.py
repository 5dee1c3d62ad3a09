"""Job holdout_examples: a project's reserved holdout of examples, normalised as the trusted
evaluator reads it, for comparing fine-tunes on it.

Output: eval.jsonl (one {"messages": [...]} per usable line, exact duplicates dropped, as
check_data writes its evaluation set), eval_prompts.txt (line for line, the SHA-256 of each
example's normalised prompt: what a version's trained_prompts.txt lists, so the evaluator can
leave out what a version learnt from without importing this recipe) and holdout_examples.json
(formats, usable and problem lines, duplicates, how many examples).
Refuses: no_usable_example.
"""

from __future__ import annotations

from trainyard_recipe import JobContext, requires
from trainyard_recipe.atomic import write_json_atomic
from trainyard_recipe.events import phase

from .check_data import prompt_hash, write_jsonl
from .fields import existing_path
from .profile_examples import examples_report, read_usable, unique

PROMPTS_FILE = "eval_prompts.txt"


@requires("data")
def run_holdout_examples(ctx: JobContext, job_input: dict) -> dict:
    data_path = existing_path(job_input, "data")
    phase(ctx, "preparing_data", step="holdout_examples")
    examples, problems = read_usable(data_path, "holdout")
    kept, duplicates = unique(examples)
    write_jsonl(ctx.output_dir / "eval.jsonl", kept)
    (ctx.output_dir / PROMPTS_FILE).write_text("".join(prompt_hash(e) + "\n" for e in kept), encoding="utf-8")
    report = {**examples_report(examples, problems, duplicates), "examples": len(kept), "promptsFile": PROMPTS_FILE}
    write_json_atomic(ctx.output_dir / "holdout_examples.json", report)
    return {"examples": len(kept), "problemLines": len(problems), "duplicates": len(duplicates)}
