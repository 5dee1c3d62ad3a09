"""The plain training loop bench/finetune.py compares the llm-lora recipe's train job with.

    <llm-lora env python> bench/finetune_loop.py SETTINGS.json RESULT.json

What a user would write by hand with transformers + PEFT and no trainer: the same base model
folder (fp32), the same LoRA (rank, alpha, dropout, targets), AdamW at the same learning
rate with a linear decay and gradient clipping at 1.0 (the Trainer's defaults), a seeded
shuffle, batches padded right to their longest example, loss on the answer tokens only.
It reads the examples through the recipe's own tokenisation (template + truncation) and
right-padding (scoring.pad_batch), so both sides train on exactly the same tokens and only the
training machinery differs.
Runs with PYTHONPATH=training, in the recipe's environment, as its own process.

With "gradientCheckpointing": true in SETTINGS.json it recomputes activations in backward,
to tell how much of a difference from the recipe that accounts for.
RESULT.json: tokens (non-padding), padded positions, per-step wall and process CPU seconds
(forward, backward, optimizer: the span the recipe's step timing covers too), the loop's wall
time, final loss.
"""

from __future__ import annotations

import json
import random
import sys
import time
from pathlib import Path


def _batches(items: list, batch_size: int, steps: int, seed: int):
    """`steps` batches of a seeded shuffle, reshuffled each epoch (like a random sampler)."""
    order: list = []
    rng = random.Random(seed)
    for _ in range(steps):
        while len(order) < batch_size:
            epoch = list(range(len(items)))
            rng.shuffle(epoch)
            order.extend(epoch)
        yield [items[i] for i in order[:batch_size]]
        del order[:batch_size]


def main(settings_path: str, result_path: str) -> int:
    import torch
    from peft import LoraConfig, get_peft_model
    from transformers import AutoModelForCausalLM

    from evaluation_lm.scoring import pad_batch
    from recipes.llm_lora.setup import tokenised_examples
    from evaluation_lm.template import load_tokenizer

    s = json.loads(Path(settings_path).read_text())
    device = s["device"]
    torch.set_num_threads(s["cpus"])
    torch.manual_seed(s["seed"])
    model_dir = Path(s["model"]) / "model"
    tokenizer = load_tokenizer(model_dir)
    items, _ = tokenised_examples(tokenizer, Path(s["data"]), "train.jsonl", s["maxLength"])
    model = AutoModelForCausalLM.from_pretrained(str(model_dir), dtype=torch.float32, local_files_only=True).to(device)
    if s.get("gradientCheckpointing"):  # the variant that recomputes activations in backward, as TRL's default does
        model.gradient_checkpointing_enable(gradient_checkpointing_kwargs={"use_reentrant": False})
        model.config.use_cache = False
    model = get_peft_model(model, LoraConfig(r=s["rank"], lora_alpha=2 * s["rank"], lora_dropout=0.05,
                                             target_modules="all-linear", task_type="CAUSAL_LM"))
    params = [p for p in model.parameters() if p.requires_grad]
    optimizer = torch.optim.AdamW(params, lr=s["learningRate"], weight_decay=0.0)
    scheduler = torch.optim.lr_scheduler.LambdaLR(optimizer, lambda step: max(0.0, 1 - step / s["steps"]))
    bf16 = device == "cuda" and torch.cuda.is_bf16_supported()  # the recipe's mixed precision rule
    if device == "cuda":
        torch.cuda.reset_peak_memory_stats()

    model.train()
    tokens = padded = 0
    step_seconds, step_cpu, loss = [], [], None
    started = time.monotonic()
    for batch in _batches(items, s["batchSize"], s["steps"], s["seed"]):
        ids, attention, labels = (t.to(device) for t in pad_batch(batch, tokenizer.pad_token_id))
        step_started, cpu_started = time.monotonic(), time.process_time()
        with torch.autocast(device_type=device, dtype=torch.bfloat16, enabled=bf16):
            loss = model(input_ids=ids, attention_mask=attention, labels=labels).loss
        loss.backward()
        torch.nn.utils.clip_grad_norm_(params, 1.0)
        optimizer.step()
        scheduler.step()
        optimizer.zero_grad()
        if device == "cuda":
            torch.cuda.synchronize()
        step_seconds.append(time.monotonic() - step_started)
        step_cpu.append(time.process_time() - cpu_started)
        real = int(attention.sum())
        tokens, padded = tokens + real, padded + ids.numel() - real
    result = {"steps": len(step_seconds), "tokens": tokens, "paddedPositions": padded,
              "stepSeconds": step_seconds, "stepCpuSeconds": step_cpu, "wallSeconds": time.monotonic() - started,
              "finalLoss": float(loss.detach()) if loss is not None else None}
    if device == "cuda":
        result["cudaPeakBytes"] = int(torch.cuda.max_memory_allocated())
    Path(result_path).write_text(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:3]))
