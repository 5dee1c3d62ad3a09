"""Job preflight: before the full run, on the device the user chose.

1. The device works: a small allocation and one forward/backward step of a tiny layer.
2. A memory estimate (memory.py: the runtime and the loaded weights as measured here, LoRA
   with its gradients, AdamW's moments, activations at maxLength and batchSize) against what
   the device has; refused (does_not_fit_memory) with the batch sizes / lengths that would
   fit, before any step runs.
3. A measured smoke step of the real model with LoRA on the longest training examples
   (padded to the longest, so an out-of-memory shows here, not at step 120). Its measured
   memory replaces the formula's activations (refused as in 2 if the measured setup does not
   fit) and its speed becomes a time estimate; with maxMinutes, refused (over_budget) with
   the steps that would fit, or, with whenOverBudget "fewer_steps", those steps planned
   instead (time.plannedSteps, with time.fittedFrom the steps asked for): train reads them.
With `measured` (an earlier preflight of this computer on the same imported model, device,
LoRA shape, batch size and CPUs, passed by the server), steps 2 and 3 are not run again
when its smoke step was at least as long as this data's longest batch: its memory and speed
stand (pessimistic for shorter examples), the memory available is read now, and the time
is estimated for this data. The model is then not loaded at all, so a run that will not fit
its budget is refused in seconds (issue 28), and one that fits starts training sooner.
Output: preflight.json.
"""

from __future__ import annotations

import math
import time

from trainyard_recipe import BadInput, JobContext, requires
from trainyard_recipe.atomic import write_json_atomic
from trainyard_recipe.events import phase

from .fields import choice, existing_path, number
from .memory import Baseline, Meter, activations_of_step, available, estimate, formula_activations
from .model_folder import resolve_model_dir
from evaluation_lm.scoring import pad_batch
from .setup import LoraSettings, check_data_dir, chosen_device, load_model, tokenised_examples, use_bf16
from evaluation_lm.template import load_tokenizer


# train.py evaluates every ceil(steps / 4) steps when evalEverySteps is not given: 4 passes.
EVAL_PASSES = 4


def device_check(device: str) -> dict:
    import torch

    started = time.monotonic()
    try:
        layer = torch.nn.Linear(64, 64).to(device)
        x = torch.randn(8, 64, device=device, requires_grad=True)
        layer(x).square().sum().backward()
        ok = bool(torch.isfinite(layer.weight.grad).all())
        if device == "cuda":
            torch.cuda.synchronize()
    except RuntimeError as exc:
        raise BadInput(f"device {device} failed a small forward/backward step: {exc}", code="device_failed") from None
    info = {"device": device, "ok": ok, "seconds": round(time.monotonic() - started, 3)}
    if device == "cuda":
        info["name"] = torch.cuda.get_device_name()
        info["bf16"] = torch.cuda.is_bf16_supported()
    return info


def _batch(items, batch_size: int, pad_id: int, device: str):
    """The longest examples (repeated when there are fewer than batch_size), padded."""
    longest = sorted(items, key=lambda i: len(i.input_ids), reverse=True)[:batch_size]
    while len(longest) < batch_size:
        longest.append(longest[len(longest) % len(longest)])
    ids, attention, labels = pad_batch(longest, pad_id)
    return ids.to(device), attention.to(device), labels.to(device), ids.shape[1]


def _fitting(config, base: Baseline, batch: int, length: int, bf16: bool, free: int, scale: float) -> list[dict]:
    """Up to 4 (batchSize, maxLength) pairs whose estimate fits: the largest length per batch
    size. `scale` is measured / formula activations of the smoke step (1 before it ran)."""
    options = []
    for b in sorted({batch // 2 ** k for k in range(0, 8) if batch // 2 ** k >= 1}, reverse=True):
        for n in sorted({length // 2 ** k for k in range(0, 5) if length // 2 ** k >= 64}, reverse=True):
            if estimate(base, formula_activations(config, b, n, bf16) * scale)["total"] <= free:
                options.append({"batchSize": b, "maxLength": n})
                break
    return options[:4]


def _refuse_memory(ctx: JobContext, report: dict, memory: dict, free: int, fitting: list[dict], device: str,
                   measured: bool):
    report["memory"].update(estimate=memory, fits=False, fitting=fitting)
    write_json_atomic(ctx.output_dir / "preflight.json", report)
    gib = 2 ** 30
    raise BadInput(f"this setup needs about {memory['total'] / gib:.1f} GiB ({_parts(memory)}"
                   f"{', measured on the longest batch' if measured else ''}) but {device} has "
                   f"{free / gib:.1f} GiB for this job; settings that would fit: {fitting or 'none'}",
                   code="does_not_fit_memory", details={"fitting": fitting})


def _parts(memory: dict) -> str:
    return ", ".join(f"{name} {memory[name] / 2 ** 20:,.0f} MiB"
                     for name in ("runtime", "weights", "lora", "optimizer", "activations"))


def _reusable(measured: dict | None, batch: int, length: int, cpus: int) -> dict | None:
    """The earlier measurement when it stands for this run: same batch size and CPUs (the
    server matched the model, device and LoRA shape), and a smoke step at least this long."""
    if not measured:
        return None
    step = measured["smokeStep"]
    if step["batchSize"] != batch or measured["cpus"] != cpus or step["length"] < length:
        return None
    return measured


class _Plan:
    """What the time estimate needs besides the speed: the run's length and the examples."""

    def __init__(self, items, eval_items, max_steps, epochs: float, batch: int, accumulation: int,
                 max_minutes, cpus: int, device: str, fewer_steps: bool):
        self.items, self.eval_items = items, eval_items
        self.max_steps, self.epochs, self.batch, self.accumulation = max_steps, epochs, batch, accumulation
        self.max_minutes, self.cpus, self.device = max_minutes, cpus, device
        # whenOverBudget "fewer_steps": a run whose steps do not fit trains the steps that do.
        self.fewer_steps = fewer_steps


def _time_report(plan: _Plan, steps: int, steps_s: float, planned_tokens: float, setup_s: float, eval_s: float,
                 speed_basis: str) -> dict:
    estimate_s = setup_s + steps_s + eval_s
    return {"plannedSteps": steps, "plannedTokens": int(planned_tokens),
            "estimatedSeconds": round(estimate_s, 1), "setupSeconds": round(setup_s, 1), "cpus": plan.cpus,
            "note": f"about {max(1, round(estimate_s / 60))} min for {steps} steps on {plan.device}"
                    + (f" with {plan.cpus} CPU thread(s)" if plan.device == "cpu" else ""),
            "basis": f"{speed_basis} for {steps_s:.0f} s of steps, plus {setup_s:.0f} s loading and "
                     f"tokenising and {eval_s:.0f} s for {EVAL_PASSES} passes over the evaluation examples"}


def _finish_with_time(ctx: JobContext, report: dict, plan: _Plan, tokens_per_s: float, setup_s: float,
                      speed_basis: str, speed_source: str = "") -> None:
    """The planned steps at a measured speed, plus loading and the evaluation passes, into
    preflight.json. When they do not fit maxMinutes: refuses over_budget with the steps that
    would fit, or plans those steps (fewer_steps) when at least one fits."""
    total_tokens = sum(len(i.input_ids) for i in plan.items)
    steps_per_epoch = math.ceil(len(plan.items) / (plan.batch * plan.accumulation))
    planned_steps = plan.max_steps or max(1, math.ceil(plan.epochs * steps_per_epoch))
    tokens_per_step = total_tokens / steps_per_epoch
    steps_s = planned_steps * tokens_per_step / tokens_per_s
    # Besides its steps the train job loads and tokenises as the preflight did before its
    # smoke step, and scores the evaluation examples EVAL_PASSES times (forward only: about a
    # third of a training step's work per token).
    eval_s = EVAL_PASSES * sum(len(i.input_ids) for i in plan.eval_items) / (3 * tokens_per_s)
    report["time"] = _time_report(plan, planned_steps, steps_s, planned_steps * tokens_per_step, setup_s, eval_s,
                                  speed_basis)
    estimate_s = report["time"]["estimatedSeconds"]
    if plan.max_minutes is None or estimate_s <= plan.max_minutes * 60:
        write_json_atomic(ctx.output_dir / "preflight.json", report)
        return
    fitting_steps = int(planned_steps * max(0.0, plan.max_minutes * 60 - setup_s - eval_s) / steps_s)
    if plan.fewer_steps and fitting_steps >= 1:
        report["time"] = {**_time_report(plan, fitting_steps, fitting_steps * tokens_per_step / tokens_per_s,
                                         fitting_steps * tokens_per_step, setup_s, eval_s, speed_basis),
                          "fittedFrom": planned_steps}
        report["time"]["note"] += (f"; the {planned_steps} steps asked for would take about {estimate_s / 60:.1f} min"
                                   f"{speed_source}, more than the {round(plan.max_minutes, 1):g} min budget")
        write_json_atomic(ctx.output_dir / "preflight.json", report)
        return
    write_json_atomic(ctx.output_dir / "preflight.json", report)
    raise BadInput(f"this run needs about {estimate_s / 60:.1f} min{speed_source} but the budget is {round(plan.max_minutes, 1):g} min; "
                   f"maxSteps {fitting_steps} would fit (or fewer epochs, a shorter maxLength)",
                   code="over_budget", details={"fittingMaxSteps": fitting_steps})


def _from_measurement(ctx: JobContext, report: dict, measured: dict, free: int, plan: _Plan) -> dict:
    """Steps 2 and 3 from an earlier preflight's measurement (see the module's docstring)."""
    memory = measured["memory"]
    report["memory"] = {"estimate": memory, "availableBytes": free, "fits": True, "lengthUsed": measured["lengthUsed"]}
    if memory["total"] > free:
        gib = 2 ** 30
        report["memory"].update(fits=False, fitting=[])
        write_json_atomic(ctx.output_dir / "preflight.json", report)
        raise BadInput(f"this setup needed about {memory['total'] / gib:.1f} GiB when measured at "
                       f"{measured['measuredAt']} ({_parts(memory)}) but {plan.device} has {free / gib:.1f} GiB for "
                       f"this job now; free memory, or use a smaller batch size or a shorter maxLength",
                       code="does_not_fit_memory", details={"fitting": []})
    step = measured["smokeStep"]
    report["smokeStep"] = step
    report["reusedFrom"] = {"jobId": measured["jobId"], "measuredAt": measured["measuredAt"]}
    _finish_with_time(ctx, report, plan, step["tokensPerSecond"], measured["setupSeconds"],
                      f"tokens/s measured by an earlier preflight on this computer ({measured['measuredAt']}: the "
                      f"same model, device, LoRA and batch size, on examples of {step['length']} tokens)",
                      f" (at the speed an earlier preflight measured on this computer at {measured['measuredAt']})")
    return {"estimatedSeconds": report["time"]["estimatedSeconds"], "tokensPerSecond": step["tokensPerSecond"],
            "memoryEstimateBytes": memory["total"], "availableBytes": free}


@requires("model", "data")
def run_preflight(ctx: JobContext, job_input: dict) -> dict:
    started_at = time.monotonic()  # the train job pays the same imports, loading and tokenising before its first step
    import torch
    from peft import get_peft_model

    torch.set_num_threads(ctx.cpus)
    model_dir = resolve_model_dir(existing_path(job_input, "model"))
    data_dir = check_data_dir(existing_path(job_input, "data"))
    device = chosen_device(job_input)
    lora = LoraSettings.from_input(job_input)
    max_length = number(job_input, "maxLength", 512, minimum=16, maximum=32768, integer=True)
    batch = number(job_input, "batchSize", 4, minimum=1, maximum=512, integer=True)
    accumulation = number(job_input, "gradientAccumulation", 1, minimum=1, maximum=256, integer=True)
    epochs = number(job_input, "epochs", 1, minimum=0.01, maximum=100)
    max_steps = number(job_input, "maxSteps", None, minimum=1, integer=True)
    max_minutes = number(job_input, "maxMinutes", None, minimum=0.05)
    fewer_steps = choice(job_input, "whenOverBudget", ("refuse", "fewer_steps"), "refuse") == "fewer_steps"
    bf16 = use_bf16(device)

    phase(ctx, "preparing_data", step="preflight")
    meter = Meter(device)
    report: dict = {"version": 1, "device": device_check(device)}
    tokenizer = load_tokenizer(model_dir)
    items, _ = tokenised_examples(tokenizer, data_dir, "train.jsonl", max_length)
    if not items:
        raise BadInput("no training example has an answer token left within maxLength", code="no_usable_example")
    eval_items, _ = tokenised_examples(tokenizer, data_dir, "eval.jsonl", max_length)
    plan = _Plan(items, eval_items, max_steps, epochs, batch, accumulation, max_minutes, ctx.cpus, device,
                 fewer_steps)
    length = min(max_length, max(len(i.input_ids) for i in items))
    measured = _reusable(job_input.get("measured"), batch, length, ctx.cpus)
    if measured:
        return _from_measurement(ctx, report, measured, available(device, meter), plan)

    # What the train job imports besides (TRL's trainer pulls in accelerate and datasets), so
    # the runtime measured below is the train job's.
    from trl import SFTConfig, SFTTrainer  # noqa: F401

    runtime = meter.now()
    model = load_model(model_dir, device)
    parameters = sum(p.numel() for p in model.parameters())
    weights = max(parameters * 4, meter.now() - runtime)  # fp32; pages still in the file count once read
    model = get_peft_model(model, lora.peft_config())
    trainable = sum(p.numel() for p in model.parameters() if p.requires_grad)
    base = Baseline(runtime=runtime, weights=weights, trainable=trainable)
    formula = formula_activations(model.config, batch, length, bf16)
    memory = estimate(base, formula)
    free = available(device, meter)
    report["memory"] = {"estimate": memory, "availableBytes": free, "fits": True, "lengthUsed": length}
    if memory["total"] > free:
        _refuse_memory(ctx, report, memory, free, _fitting(model.config, base, batch, length, bf16, free, 1.0),
                       device, measured=False)

    setup_done = time.monotonic()
    ids, attention, labels, width = _batch(items, batch, tokenizer.pad_token_id, device)
    optimizer = torch.optim.AdamW([p for p in model.parameters() if p.requires_grad], lr=1e-4)
    seconds, peaks = [], []
    model.train()
    for _ in range(2):  # the first step pays for allocation and kernel choice; the second is the measure
        meter.reset_peak()
        started = time.monotonic()
        with torch.autocast(device_type=device, dtype=torch.bfloat16, enabled=bf16):
            loss = model(input_ids=ids, attention_mask=attention, labels=labels).loss
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()
        if device == "cuda":
            torch.cuda.synchronize()
        seconds.append(time.monotonic() - started)
        peaks.append(meter.peak())
    if meter.measures_peak:
        activations = activations_of_step(peaks, base)
        memory = estimate(base, activations, measured_peak=max(peaks))
    else:
        activations, memory = formula, estimate(base, formula)
    report["memory"]["estimate"] = memory
    if memory["total"] > free:
        _refuse_memory(ctx, report, memory, free,
                       _fitting(model.config, base, batch, length, bf16, free, activations / max(formula, 1)),
                       device, measured=meter.measures_peak)
    loss = loss.detach()
    if not math.isfinite(float(loss)):
        raise BadInput(f"the smoke step's loss is {float(loss)}; the model or data produce no finite loss",
                       code="device_failed")
    tokens_per_s = batch * width / seconds[-1]
    report["smokeStep"] = {"batchSize": batch, "length": width, "seconds": [round(s, 3) for s in seconds],
                           "loss": float(loss), "tokensPerSecond": round(tokens_per_s, 1), "longestFirst": True}
    _finish_with_time(ctx, report, plan, tokens_per_s, setup_done - started_at,
                      "measured tokens/s of one step on the longest examples (pessimistic for short ones)")
    return {"estimatedSeconds": report["time"]["estimatedSeconds"], "tokensPerSecond": report["smokeStep"]["tokensPerSecond"],
            "memoryEstimateBytes": memory["total"], "availableBytes": free}
