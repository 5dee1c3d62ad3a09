"""The llm-lora recipe's train job, unchanged, with a stopwatch and a padding counter on it.

    <llm-lora env python> bench/finetune_probe.py train --input input.json   (env: BENCH_PROBE_FILE)

Runs the recipe's own runner and train function (what `python -m recipes.llm_lora train`
runs) after two observation hooks that change nothing the job computes:
- every Trainer gets one more callback timing each optimizer step, wall and process CPU time
  (on_step_begin to on_step_end: forward, backward, optimizer; not data loading, evaluation
  or checkpoints);
- Trainer.training_step counts, per micro-batch, the real (attention mask) and padded
  positions it was given.
On exit it writes BENCH_PROBE_FILE: the step seconds, token and padding counts, and on cuda
torch.cuda.max_memory_allocated.
"""

from __future__ import annotations

import atexit
import json
import os
import sys
import time


def _install(record: dict) -> None:
    import transformers

    class StepTimer(transformers.TrainerCallback):
        def on_step_begin(self, args, state, control, **kwargs):
            record["_began"], record["_cpu"] = time.monotonic(), time.process_time()

        def on_step_end(self, args, state, control, **kwargs):
            if args.device.type == "cuda":
                import torch

                torch.cuda.synchronize()
            record["stepSeconds"].append(time.monotonic() - record.pop("_began"))
            record["stepCpuSeconds"].append(time.process_time() - record.pop("_cpu"))

    original_init, original_step = transformers.Trainer.__init__, transformers.Trainer.training_step

    def init(self, *args, **kwargs):
        original_init(self, *args, **kwargs)
        self.add_callback(StepTimer())

    def training_step(self, model, inputs, *args, **kwargs):
        ids = inputs["input_ids"]
        mask = inputs.get("attention_mask")
        real = int(mask.sum()) if mask is not None else ids.numel()  # padding-free batches have no mask
        record["tokens"] += real
        record["paddedPositions"] += ids.numel() - real
        record["microBatchWidths"].append(int(ids.shape[-1]))
        return original_step(self, model, inputs, *args, **kwargs)

    transformers.Trainer.__init__, transformers.Trainer.training_step = init, training_step


def main() -> int:
    from trainyard_recipe import run_recipe

    from recipes.llm_lora.train import run_train

    record = {"stepSeconds": [], "stepCpuSeconds": [], "tokens": 0, "paddedPositions": 0, "microBatchWidths": []}

    def write() -> None:
        import torch

        record.pop("_began", None)
        record.pop("_cpu", None)
        if torch.cuda.is_available() and torch.cuda.is_initialized():
            record["cudaPeakBytes"] = int(torch.cuda.max_memory_allocated())
        with open(os.environ["BENCH_PROBE_FILE"], "w", encoding="utf-8") as handle:
            json.dump(record, handle)

    _install(record)
    atexit.register(write)
    return run_recipe({"train": run_train})


if __name__ == "__main__":
    sys.exit(main())
