"""Job train: LoRA on the base model with TRL's SFTTrainer, loss on the answer tokens only.

Checkpoints (adapter, optimizer, scheduler, step, RNG: the Trainer's checkpoint-N folders)
go to TRAINYARD_CHECKPOINT_DIR every `checkpointEverySteps` and when SIGTERM arrives; then
the job exits 130. A new attempt resumes from `resumeFrom` (an earlier attempt's whole
checkpoint folder, whose newest complete checkpoint-N is used, or one checkpoint-N folder;
only read, never written) or from the newest checkpoint already in its own checkpoint folder,
and continues at the saved step with the saved loss history.
Batches are grouped by length (the Trainer's length-grouped sampler: similar lengths share a
batch, so little compute goes to padding), with the batch holding the longest example first,
as in preflight's smoke step, so an out-of-memory shows at step 1.
With `preflight` (its output folder), the steps it fitted to the budget replace the planned
ones, so the learning-rate schedule ends where training does.
Output: adapter/ (adapter_model.safetensors, adapter_config.json, tokenizer + chat template),
training.json.
"""

from __future__ import annotations

import json
import math
import signal
import time
from pathlib import Path

from trainyard_recipe import BadInput, JobContext, Stopped, requires
from trainyard_recipe.atomic import write_json_atomic
from trainyard_recipe.events import emit, phase, progress

from .fields import existing_path, number
from .model_folder import resolve_model_dir
from .setup import LoraSettings, as_dataset, check_data_dir, chosen_device, load_model, tokenised_examples, use_bf16
from evaluation_lm.template import load_tokenizer


def _settings(job_input: dict) -> dict:
    return {
        "maxLength": number(job_input, "maxLength", 512, minimum=16, maximum=32768, integer=True),
        "batchSize": number(job_input, "batchSize", 4, minimum=1, maximum=512, integer=True),
        "gradientAccumulation": number(job_input, "gradientAccumulation", 1, minimum=1, maximum=256, integer=True),
        "learningRate": number(job_input, "learningRate", 2e-4, minimum=1e-7, maximum=1.0),
        "epochs": number(job_input, "epochs", 1, minimum=0.01, maximum=100),
        "maxSteps": number(job_input, "maxSteps", None, minimum=1, integer=True),
        "maxMinutes": number(job_input, "maxMinutes", None, minimum=0.05),
        "checkpointEverySteps": number(job_input, "checkpointEverySteps", 50, minimum=1, integer=True),
        "evalEverySteps": number(job_input, "evalEverySteps", None, minimum=1, integer=True),
        "seed": number(job_input, "seed", 0, minimum=0, integer=True),
    }


def _complete(path: Path) -> bool:
    """A checkpoint-N folder the Trainer finished writing (trainer_state.json comes last)."""
    return path.is_dir() and path.name.startswith("checkpoint-") and path.name.split("-")[-1].isdigit() \
        and (path / "trainer_state.json").is_file()


def _last_checkpoint(folder: Path) -> Path | None:
    found = [p for p in folder.glob("checkpoint-*") if _complete(p)]
    return max(found, key=lambda p: int(p.name.split("-")[-1])) if found else None


def resume_checkpoint(path: Path) -> Path:
    """resumeFrom: a complete checkpoint-N folder, or the newest complete one in a folder of them."""
    found = path if _complete(path) else _last_checkpoint(path) if path.is_dir() else None
    if found is None:
        raise BadInput(f"resumeFrom {path} holds no complete checkpoint (a checkpoint-N folder with "
                       "trainer_state.json); start a new run instead", code="no_checkpoint",
                       details={"field": "resumeFrom"})
    return found


def _fitted_steps(preflight_dir: Path | None, total_steps: int) -> int:
    """The steps the preflight fitted to the budget (whenOverBudget "fewer_steps"), when it did."""
    if preflight_dir is None:
        return total_steps
    report = json.loads((preflight_dir / "preflight.json").read_text())
    time_plan = report.get("time") or {}
    return min(total_steps, time_plan["plannedSteps"]) if "fittedFrom" in time_plan else total_steps


def _callback(ctx: JobContext, total_steps: int, max_seconds: float | None, stop: dict):
    from transformers import TrainerCallback

    class Progress(TrainerCallback):
        """Events for the worker, the budget, and a SIGTERM turned into save-then-stop."""

        def __init__(self) -> None:
            self.started = time.monotonic()
            self.first_step: int | None = None
            self.first_tokens = 0

        def on_train_begin(self, args, state, control, **kwargs):
            self.first_step, self.first_tokens = state.global_step, state.num_input_tokens_seen
            self.started = time.monotonic()

        def on_step_end(self, args, state, control, **kwargs):
            if stop["signal"]:
                control.should_save, control.should_training_stop = True, True
                stop["reason"] = "signal"
            elif max_seconds is not None and time.monotonic() - stop["started"] >= max_seconds:
                control.should_save, control.should_training_stop = True, True
                stop["reason"] = "budget"
            return control

        def on_log(self, args, state, control, logs=None, **kwargs):
            logs = logs or {}
            elapsed = max(time.monotonic() - self.started, 1e-6)
            done = state.global_step - (self.first_step or 0)
            tokens_per_s = (state.num_input_tokens_seen - self.first_tokens) / elapsed
            eta = (total_steps - state.global_step) * elapsed / done if done else None
            if "loss" in logs:
                emit(ctx, "metric", name="train_loss", step=state.global_step, value=logs["loss"],
                     tokensPerSecond=round(tokens_per_s, 1), learningRate=logs.get("learning_rate"))
                progress(ctx, state.global_step, total_steps, unit="steps",
                         etaSeconds=None if eta is None else round(eta, 1), tokensPerSecond=round(tokens_per_s, 1))
            if "eval_loss" in logs:
                emit(ctx, "metric", name="eval_loss", step=state.global_step, value=logs["eval_loss"])

    return Progress()


def lean_trainer_class():
    """SFTTrainer whose loss is the model's own cross-entropy on the same labels.

    TRL's compute_loss runs its fused LM head, which on every step also computes the entropy
    and the top-1 accuracy over the whole vocabulary for its logs, and on a device without
    Triton scores every position (prompt and padding too) in tiles and projects through the
    LM head a second time in backward. The model's loss is the same objective: -100 outside
    the answer tokens, summed over the accumulated batch's answer tokens (num_items_in_batch)
    as TRL sums it. TRL's data preparation, collator, checkpoints and logs stay as they are.
    """
    from transformers import Trainer
    from trl import SFTTrainer

    class LeanSFTTrainer(SFTTrainer):
        def compute_loss(self, model, inputs, return_outputs=False, num_items_in_batch=None):
            # use_cache off as in TRL's: a training forward needs no key/value cache
            return Trainer.compute_loss(self, model, {**inputs, "use_cache": False}, return_outputs=return_outputs,
                                        num_items_in_batch=num_items_in_batch)

    return LeanSFTTrainer


def build_trainer(model, tokenizer, train_items, eval_items, s: dict, device: str, total_steps: int,
                  checkpoint_dir: Path, callbacks: list):
    """SFTTrainer (lean_trainer_class) on pre-tokenised examples (completion_mask 0 -> label
    -100), with batches grouped by length: the Trainer's length-grouped sampler puts the
    batch holding the longest example first."""
    from trl import SFTConfig

    config = SFTConfig(
        output_dir=str(checkpoint_dir), max_steps=total_steps, per_device_train_batch_size=s["batchSize"],
        per_device_eval_batch_size=s["batchSize"], gradient_accumulation_steps=s["gradientAccumulation"],
        learning_rate=s["learningRate"], lr_scheduler_type="linear", warmup_steps=0, seed=s["seed"],
        data_seed=s["seed"], max_length=s["maxLength"], truncation_mode="keep_start", completion_only_loss=True,
        logging_steps=1, save_strategy="steps", save_steps=s["checkpointEverySteps"], save_total_limit=2,
        eval_strategy="steps" if eval_items else "no",
        eval_steps=s["evalEverySteps"] or math.ceil(total_steps / 4), use_cpu=device == "cpu", bf16=use_bf16(device),
        fp16=False, report_to=[], disable_tqdm=True, dataloader_num_workers=0, dataloader_pin_memory=device == "cuda",
        include_num_input_tokens_seen="non_padding", save_only_model=False,
        train_sampling_strategy="group_by_length",
        # TRL turns activation checkpointing on by default; preflight measures and budgets steps
        # that keep their activations (and refuses a setup whose memory they do not fit), and
        # recomputing them cost 28 % of each step on CPU (bench/finetune.py, docs/benchmarks.md).
        activation_checkpointing=False,
    )
    return lean_trainer_class()(model=model, args=config, train_dataset=as_dataset(train_items),
                                eval_dataset=as_dataset(eval_items) if eval_items else None,
                                processing_class=tokenizer, callbacks=callbacks)


@requires("model", "data")
def run_train(ctx: JobContext, job_input: dict) -> dict:
    import datasets
    import torch
    from peft import get_peft_model

    torch.set_num_threads(ctx.cpus)
    datasets.disable_progress_bars()
    stop = {"signal": False, "reason": None, "started": time.monotonic()}
    model_root = existing_path(job_input, "model")
    model_dir = resolve_model_dir(model_root)
    data_dir = check_data_dir(existing_path(job_input, "data"))
    resume_from = existing_path(job_input, "resumeFrom", required=False)
    resume_from = resume_checkpoint(resume_from) if resume_from else None
    device = chosen_device(job_input)
    lora = LoraSettings.from_input(job_input)
    s = _settings(job_input)

    phase(ctx, "preparing_data", step="tokenise")
    tokenizer = load_tokenizer(model_dir)
    train_items, dropped = tokenised_examples(tokenizer, data_dir, "train.jsonl", s["maxLength"])
    eval_items, _ = tokenised_examples(tokenizer, data_dir, "eval.jsonl", s["maxLength"])
    if not train_items:
        raise BadInput("no training example has an answer token left within maxLength; raise maxLength",
                       code="no_usable_example")
    per_step = s["batchSize"] * s["gradientAccumulation"]
    steps_per_epoch = math.ceil(len(train_items) / per_step)
    total_steps = s["maxSteps"] or max(1, math.ceil(s["epochs"] * steps_per_epoch))
    total_steps = _fitted_steps(existing_path(job_input, "preflight", required=False), total_steps)

    model = get_peft_model(load_model(model_dir, device), lora.peft_config())
    trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
    trainer = build_trainer(model, tokenizer, train_items, eval_items, s, device, total_steps, ctx.checkpoint_dir,
                            [_callback(ctx, total_steps, s["maxMinutes"] and s["maxMinutes"] * 60, stop)])
    checkpoint = resume_from or _last_checkpoint(ctx.checkpoint_dir)
    resumed_step = json.loads((checkpoint / "trainer_state.json").read_text())["global_step"] if checkpoint else None

    def on_sigterm(signum, _frame):  # save at the end of the current step, then stop (exit 130)
        stop["signal"] = True

    phase(ctx, "training", steps=total_steps, resumedFromStep=resumed_step, trainableParameters=trainable)
    previous = signal.signal(signal.SIGTERM, on_sigterm)
    try:
        result = trainer.train(resume_from_checkpoint=str(checkpoint) if checkpoint else None)
    finally:
        signal.signal(signal.SIGTERM, previous)
    if stop["reason"] == "signal":
        raise Stopped(f"stopped by SIGTERM at step {trainer.state.global_step}; checkpoint saved in "
                      f"{ctx.checkpoint_dir.name}/checkpoint-{trainer.state.global_step}")

    adapter_dir = ctx.output_dir / "adapter"
    model.save_pretrained(str(adapter_dir))
    tokenizer.save_pretrained(str(adapter_dir))
    history = trainer.state.log_history
    train_losses = [{"step": h["step"], "loss": h["loss"]} for h in history if "loss" in h]
    eval_losses = [{"step": h["step"], "loss": h["eval_loss"]} for h in history if "eval_loss" in h]
    seconds = time.monotonic() - stop["started"]
    base_json = model_root / "base.json"
    summary = {
        "version": 1, "device": device, "bf16": use_bf16(device), "lora": lora.as_json(), "settings": s,
        "steps": trainer.state.global_step, "plannedSteps": total_steps, "stoppedBy": stop["reason"] or "completed",
        "resumedFromStep": resumed_step, "trainExamples": len(train_items), "droppedNoAnswerLeft": dropped,
        "evalExamples": len(eval_items), "trainableParameters": trainable, "trainLoss": train_losses,
        "evalLoss": eval_losses, "finalTrainLoss": train_losses[-1]["loss"] if train_losses else None,
        "tokensSeen": trainer.state.num_input_tokens_seen, "trainRuntimeSeconds": result.metrics.get("train_runtime"),
        "seconds": round(seconds, 2),
        "tokensPerSecond": round(trainer.state.num_input_tokens_seen / max(result.metrics.get("train_runtime", seconds), 1e-6), 1),
        "base": json.loads(base_json.read_text()) if base_json.is_file() else None,
    }
    if summary["base"]:
        summary["base"].pop("files", None)
    write_json_atomic(ctx.output_dir / "training.json", summary)
    return {"steps": summary["steps"], "finalTrainLoss": summary["finalTrainLoss"],
            "finalEvalLoss": eval_losses[-1]["loss"] if eval_losses else None,
            "tokensPerSecond": summary["tokensPerSecond"], "stoppedBy": summary["stoppedBy"]}
