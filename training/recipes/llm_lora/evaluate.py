"""Job evaluate: the base model, then base + adapter, on the same held-out examples.

receipt.json: mean NLL per answer token and perplexity for both (same tokens, same masking
as training), betterThanBase from those numbers only, side-by-side greedy generations for a
few prompts, and, with an answer pattern (a regex whose first group is the answer, e.g.
`#### (\\S+)`), exact match of the extracted answer for both on `answerExamples` prompts.
"""

from __future__ import annotations

import hashlib
import re

from trainyard_recipe import BadInput, JobContext, requires
from trainyard_recipe.atomic import write_json_atomic
from trainyard_recipe.events import phase

from . import RECIPE_NAME, RECIPE_VERSION
from .artifacts import adapter_dir
from .conversations import load_normalised
from .fields import existing_path, number
from .model_folder import resolve_model_dir
from .scoring import generate, score
from .setup import check_data_dir, chosen_device, load_model, tokenised_examples
from .template import load_tokenizer, render_prompt


def _pattern(job_input: dict) -> re.Pattern | None:
    raw = job_input.get("answerPattern")
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


def _extract(pattern: re.Pattern, text: str) -> str | None:
    found = pattern.search(text)
    return found.group(1).strip() if found else None


@requires("model", "adapter", "data")
def run_evaluate(ctx: JobContext, job_input: dict) -> dict:
    import torch
    from peft import PeftModel

    torch.set_num_threads(ctx.cpus)
    model_dir = resolve_model_dir(existing_path(job_input, "model"))
    adapter = adapter_dir(existing_path(job_input, "adapter"))
    data_dir = check_data_dir(existing_path(job_input, "data"))
    device = chosen_device(job_input)
    max_length = number(job_input, "maxLength", 512, minimum=16, maximum=32768, integer=True)
    n_generate = number(job_input, "generations", 3, minimum=0, maximum=100, integer=True)
    max_new = number(job_input, "maxNewTokens", 64, minimum=1, maximum=4096, integer=True)
    pattern = _pattern(job_input)
    n_answers = number(job_input, "answerExamples", 20 if pattern else 0, minimum=0, integer=True)

    tokenizer = load_tokenizer(model_dir)
    items, dropped = tokenised_examples(tokenizer, data_dir, "eval.jsonl", max_length)
    if not items:
        raise BadInput("the evaluation set has no example with an answer token within maxLength",
                       code="no_usable_example")
    conversations = load_normalised(data_dir / "eval.jsonl")
    prompts = [render_prompt(tokenizer, messages) for messages in conversations]
    references = [messages[-1]["content"] for messages in conversations]
    # A small evaluation set may hold fewer examples than the answers asked for: generate what there is.
    n_prompts = min(len(conversations), max(n_generate, n_answers if pattern else 0))

    phase(ctx, "evaluating", model="base", examples=len(items))
    model = load_model(model_dir, device)
    results = {"base": score(model, items, tokenizer.pad_token_id, device)}
    base_answers = generate(model, tokenizer, prompts[:n_prompts], device, max_new)
    phase(ctx, "evaluating", model="adapter", examples=len(items))
    model = PeftModel.from_pretrained(model, str(adapter))
    results["adapter"] = score(model, items, tokenizer.pad_token_id, device)
    adapter_answers = generate(model, tokenizer, prompts[:n_prompts], device, max_new)

    phase(ctx, "comparing")
    eval_sha = hashlib.sha256((data_dir / "eval.jsonl").read_bytes()).hexdigest()
    receipt = {
        "version": 1, "evaluator": f"{RECIPE_NAME}.evaluate {RECIPE_VERSION}",
        "metric": "mean_nll_per_answer_token", "direction": "lower", "evalSetSha256": eval_sha,
        "maxLength": max_length, "examples": len(items), "droppedNoAnswerLeft": dropped,
        "base": {k: v for k, v in results["base"].items() if k != "perExample"},
        "adapter": {k: v for k, v in results["adapter"].items() if k != "perExample"},
        "betterThanBase": results["adapter"]["meanNll"] < results["base"]["meanNll"],
        "generations": [{"prompt": conversations[i][-2]["content"], "reference": references[i],
                         "base": base_answers[i], "adapter": adapter_answers[i]} for i in range(min(n_generate, n_prompts))],
    }
    if pattern is not None and n_answers:
        wanted = [_extract(pattern, ref) for ref in references[:n_answers]]
        receipt["exactMatch"] = {"pattern": pattern.pattern, "examples": len(wanted), **{
            name: sum(1 for w, a in zip(wanted, answers) if w is not None and _extract(pattern, a) == w) / len(wanted)
            for name, answers in (("base", base_answers), ("adapter", adapter_answers))}}
    write_json_atomic(ctx.output_dir / "receipt.json", receipt)
    write_json_atomic(ctx.output_dir / "per_example.json", {"base": results["base"]["perExample"],
                                                           "adapter": results["adapter"]["perExample"]})
    metrics = {"baseLoss": receipt["base"]["meanNll"], "adapterLoss": receipt["adapter"]["meanNll"],
               "betterThanBase": receipt["betterThanBase"]}
    if "exactMatch" in receipt:
        metrics.update(baseExactMatch=receipt["exactMatch"]["base"], adapterExactMatch=receipt["exactMatch"]["adapter"])
    return metrics
