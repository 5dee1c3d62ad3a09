"""Job score: the base model, then base + adapter, on the same held-out examples.

receipt.json: mean NLL per answer token and perplexity for both (same tokens, same masking
as training: template.py), betterThanBase from those numbers only, side-by-side greedy
generations for a few prompts, and, with an answer pattern (a regex whose first group is the
answer, e.g. `#### (\\S+)`), exact match of the extracted answer for both on `answerExamples`
prompts; plus the evaluator's identity and the evaluation contract (identity.py) a registry
gates on. per_example.json: summed NLL and answer-token count per example, in eval.jsonl order.
"""

from __future__ import annotations

import hashlib

from trainyard_recipe import BadInput, JobContext, requires, sha256_file
from trainyard_recipe.atomic import write_json_atomic
from trainyard_recipe.events import phase

from .answers import answer_pattern, exact_match
from .device import chosen_device, load_model
from .examples import read_conversations, tokenised_examples
from .identity import METRIC, evaluation_contract, evaluator_identity
from .inputs import adapter_folder, base_model, eval_file, folder, integer
from .scoring import generate, score
from .template import load_tokenizer, render_prompt

RECEIPT_VERSION = 1


def _scores(result: dict) -> dict:
    return {k: v for k, v in result.items() if k != "perExample"}


@requires("model", "adapter", "data")
def run_score(ctx: JobContext, job_input: dict) -> dict:
    model_dir, base_sha = base_model(folder(job_input, "model"))
    adapter = adapter_folder(folder(job_input, "adapter"))
    data_dir = folder(job_input, "data")
    eval_path = eval_file(data_dir)
    device = chosen_device(job_input)
    max_length = integer(job_input, "maxLength", 512, 16, 32768)
    n_generate = integer(job_input, "generations", 3, 0, 100)
    max_new = integer(job_input, "maxNewTokens", 64, 1, 4096)
    pattern = answer_pattern(job_input.get("answerPattern"))
    n_answers = integer(job_input, "answerExamples", 20 if pattern else 0, 0)

    import torch
    from peft import PeftModel

    torch.set_num_threads(ctx.cpus)
    tokenizer = load_tokenizer(model_dir)
    items, dropped = tokenised_examples(tokenizer, data_dir, eval_path.name, max_length)
    if not items:
        raise BadInput("the evaluation set has no example with an answer token within maxLength",
                       code="no_usable_example")
    conversations = read_conversations(eval_path)
    prompts = [render_prompt(tokenizer, messages) for messages in conversations]
    references = [messages[-1]["content"] for messages in conversations]
    # A small evaluation set may hold fewer examples than the answers asked for: generate what there is.
    n_prompts = min(len(conversations), max(n_generate, n_answers if pattern else 0))

    phase(ctx, "evaluating", model="base", examples=len(items))
    model = load_model(model_dir, device)
    base = score(model, items, tokenizer.pad_token_id, device)
    base_answers = generate(model, tokenizer, prompts[:n_prompts], device, max_new)
    phase(ctx, "evaluating", model="adapter", examples=len(items))
    model = PeftModel.from_pretrained(model, str(adapter))
    tuned = score(model, items, tokenizer.pad_token_id, device)
    tuned_answers = generate(model, tokenizer, prompts[:n_prompts], device, max_new)

    phase(ctx, "comparing")
    evaluator = evaluator_identity()
    contract, contract_sha = evaluation_contract(
        eval_sha=sha256_file(eval_path), base_sha=base_sha, max_length=max_length,
        template_sha=hashlib.sha256(tokenizer.chat_template.encode("utf-8")).hexdigest(),
        evaluator_version=evaluator["version"])
    receipt = {
        "version": RECEIPT_VERSION, "evaluator": evaluator, "metric": METRIC, "direction": "lower",
        "evalSetSha256": contract["evalSetSha256"], "maxLength": max_length, "examples": len(items),
        "droppedNoAnswerLeft": dropped, "base": _scores(base), "adapter": _scores(tuned),
        "betterThanBase": tuned["meanNll"] < base["meanNll"],
        "generations": [{"prompt": conversations[i][-2]["content"], "reference": references[i],
                         "base": base_answers[i], "adapter": tuned_answers[i]} for i in range(min(n_generate, n_prompts))],
        "adapterSha256": sha256_file(adapter / "adapter_model.safetensors"),
        "evaluationContract": contract, "contractSha256": contract_sha,
    }
    if pattern is not None and n_answers:
        refs = references[:n_answers]
        receipt["exactMatch"] = {"pattern": pattern.pattern, "examples": len(refs),
                                 "base": exact_match(pattern, refs, base_answers),
                                 "adapter": exact_match(pattern, refs, tuned_answers)}
    write_json_atomic(ctx.output_dir / "receipt.json", receipt)
    write_json_atomic(ctx.output_dir / "per_example.json", {"base": base["perExample"], "adapter": tuned["perExample"]})
    metrics = {"baseLoss": base["meanNll"], "adapterLoss": tuned["meanNll"], "betterThanBase": receipt["betterThanBase"],
               "contractSha256": contract_sha}
    if "exactMatch" in receipt:
        metrics.update(baseExactMatch=receipt["exactMatch"]["base"], adapterExactMatch=receipt["exactMatch"]["adapter"])
    return metrics
