"""Job generate ("Try it"): one prompt answered greedily by the base model and by base + adapter.

The prompt is one user message rendered with the chat template the adapter was trained with
(saved beside it by train), so it looks exactly like a training prompt.
Output: answer.json {prompt, base, adapter, device, maxNewTokens, seconds, baseModel, adapterSha256}.
"""

from __future__ import annotations

import time

from trainyard_recipe import BadInput, JobContext, requires
from trainyard_recipe.atomic import write_json_atomic
from trainyard_recipe.events import phase

from evaluation_lm.scoring import generate
from evaluation_lm.template import load_tokenizer, render_question

from .artifacts import adapter_dir, adapter_sha256, identity, read_base
from .fields import existing_path, number
from .model_folder import resolve_model_dir
from .setup import chosen_device, load_model


@requires("model", "adapter", "prompt")
def run_generate(ctx: JobContext, job_input: dict) -> dict:
    import torch
    from peft import PeftModel

    torch.set_num_threads(ctx.cpus)
    started = time.monotonic()
    model_root = existing_path(job_input, "model")
    model_dir = resolve_model_dir(model_root)
    adapter = adapter_dir(existing_path(job_input, "adapter"))
    prompt = job_input["prompt"]
    if not isinstance(prompt, str) or not prompt.strip():
        raise BadInput("input field 'prompt' must be non-empty text", code="invalid_input", details={"field": "prompt"})
    max_new = number(job_input, "maxNewTokens", 128, minimum=1, maximum=4096, integer=True)
    device = chosen_device(job_input)

    phase(ctx, "generating")
    tokenizer = load_tokenizer(adapter)
    rendered = [render_question(tokenizer, prompt)]
    model = load_model(model_dir, device)
    base_answer = generate(model, tokenizer, rendered, device, max_new)[0]
    model = PeftModel.from_pretrained(model, str(adapter))
    adapter_answer = generate(model, tokenizer, rendered, device, max_new)[0]
    answer = {"version": 1, "prompt": prompt, "base": base_answer, "adapter": adapter_answer, "device": device,
              "maxNewTokens": max_new, "seconds": round(time.monotonic() - started, 2),
              "baseModel": identity(read_base(model_root)), "adapterSha256": adapter_sha256(adapter)}
    write_json_atomic(ctx.output_dir / "answer.json", answer)
    return {"seconds": answer["seconds"]}
