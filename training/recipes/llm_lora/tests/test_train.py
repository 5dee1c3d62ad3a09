"""preflight and train on the tiny GPT-2 (real PEFT/TRL, CPU), and a SIGTERM'd run
that resumes at its saved step."""

from __future__ import annotations

import hashlib
import json
import math
import shutil
import time
from pathlib import Path

import pytest

from conftest import make_job_context
from recipes.llm_lora.preflight import run_preflight
from recipes.llm_lora.setup import chosen_device
from recipes.llm_lora.tests.support import SMALL, TINY_GPT2, run
from recipes.llm_lora.train import resume_checkpoint
from trainyard_recipe import BadInput



def test_preflight_checks_the_device_estimates_memory_and_times_a_real_step(tmp_path, tiny, tiny_data):
    ctx = make_job_context(tmp_path, cpus=2)
    metrics = run_preflight(ctx, {"model": str(tiny), "data": str(tiny_data), **SMALL, "epochs": 1})
    report = json.loads((ctx.output_dir / "preflight.json").read_text())
    assert report["device"]["device"] == "cpu" and report["device"]["ok"] is True
    memory = report["memory"]
    assert memory["fits"] and memory["estimate"]["weights"] >= 102_640 * 4  # measured; at least fp32 parameters
    assert memory["estimate"]["total"] == sum(v for k, v in memory["estimate"].items() if k not in ("total", "measuredPeak"))
    step = report["smokeStep"]
    assert step["length"] == 64 and step["batchSize"] == 2 and math.isfinite(step["loss"])  # longest examples, cut at 64
    # The steps at the measured rate, plus the loading and evaluation passes the basis names (rounded to 0.1 s).
    steps_seconds = report["time"]["plannedTokens"] / step["tokensPerSecond"]
    assert report["time"]["estimatedSeconds"] >= steps_seconds * 0.95 - 0.06
    assert "loading and tokenising" in report["time"]["basis"] and "evaluation examples" in report["time"]["basis"]
    assert metrics["estimatedSeconds"] > 0


def test_preflight_refuses_a_budget_the_measured_step_cannot_meet(tmp_path, tiny, tiny_data):
    ctx = make_job_context(tmp_path, cpus=2)
    with pytest.raises(BadInput) as refused:
        run_preflight(ctx, {"model": str(tiny), "data": str(tiny_data), **SMALL, "epochs": 100, "maxMinutes": 0.05})
    assert refused.value.code == "over_budget" and refused.value.details["fittingMaxSteps"] >= 0


def _measurement(report: dict, job_id: str = "j20261206080000-0123456789") -> dict:
    """What the server passes from an earlier preflight (lora-measurement.ts)."""
    return {"jobId": job_id, "measuredAt": "2026-12-06T08:00:00+00:00", "cpus": 2, "smokeStep": report["smokeStep"],
            "memory": report["memory"]["estimate"], "lengthUsed": report["memory"]["lengthUsed"],
            "setupSeconds": report["time"]["setupSeconds"]}


def test_an_earlier_measurement_stands_without_loading_the_model_and_refuses_an_unmeetable_budget(tmp_path, tiny,
                                                                                                   tiny_data):
    first = make_job_context(tmp_path / "first", cpus=2)
    run_preflight(first, {"model": str(tiny), "data": str(tiny_data), **SMALL, "epochs": 1})
    measured = _measurement(json.loads((first.output_dir / "preflight.json").read_text()))
    # The same model without its weights: a preflight that loaded it would fail, so these pass
    # only on the earlier measurement.
    hollow = tmp_path / "hollow"
    shutil.copytree(tiny, hollow)
    for weights in (hollow / "model").glob("*.safetensors"):
        weights.unlink()

    again = make_job_context(tmp_path / "again", cpus=2)
    run_preflight(again, {"model": str(hollow), "data": str(tiny_data), **SMALL, "epochs": 3, "measured": measured})
    report = json.loads((again.output_dir / "preflight.json").read_text())
    assert report["reusedFrom"] == {"jobId": measured["jobId"], "measuredAt": measured["measuredAt"]}
    assert report["smokeStep"] == measured["smokeStep"] and report["memory"]["fits"]
    assert report["time"]["plannedSteps"] > 1 and "earlier preflight on this computer" in report["time"]["basis"]

    refused = make_job_context(tmp_path / "refused", cpus=2)
    with pytest.raises(BadInput) as over:
        run_preflight(refused, {"model": str(hollow), "data": str(tiny_data), **SMALL, "epochs": 100,
                                "maxMinutes": 0.05, "measured": measured})
    assert over.value.code == "over_budget" and over.value.details["fittingMaxSteps"] >= 0
    assert f"measured on this computer at {measured['measuredAt']}" in over.value.message
    assert "reusedFrom" in json.loads((refused.output_dir / "preflight.json").read_text())


def test_an_earlier_measurement_of_shorter_examples_or_other_cpus_is_measured_again(tmp_path, tiny, tiny_data):
    first = make_job_context(tmp_path / "first", cpus=2)
    run_preflight(first, {"model": str(tiny), "data": str(tiny_data), **SMALL, "epochs": 1})
    report = json.loads((first.output_dir / "preflight.json").read_text())
    shorter = _measurement({**report, "smokeStep": {**report["smokeStep"], "length": report["smokeStep"]["length"] - 8}})
    other_cpus = {**_measurement(report), "cpus": 1}
    for measured in (shorter, other_cpus):
        ctx = make_job_context(tmp_path / f"cpus{measured['cpus']}-{measured['smokeStep']['length']}", cpus=2)
        run_preflight(ctx, {"model": str(tiny), "data": str(tiny_data), **SMALL, "epochs": 1, "measured": measured})
        fresh = json.loads((ctx.output_dir / "preflight.json").read_text())
        assert "reusedFrom" not in fresh and fresh["smokeStep"]["length"] == report["smokeStep"]["length"]


def test_with_fewer_steps_a_budget_too_short_plans_the_steps_that_fit_and_train_takes_them(tmp_path, tiny,
                                                                                               tiny_data):
    first = make_job_context(tmp_path / "first", cpus=2)
    run_preflight(first, {"model": str(tiny), "data": str(tiny_data), **SMALL, "epochs": 1})
    report = json.loads((first.output_dir / "preflight.json").read_text())
    t = report["time"]
    tokens_per_step = t["plannedTokens"] / t["plannedSteps"]
    per_step_s = tokens_per_step / report["smokeStep"]["tokensPerSecond"]
    eval_s = t["estimatedSeconds"] - t["setupSeconds"] - t["plannedSteps"] * per_step_s
    # A budget that holds loading, the evaluation passes and a few steps of the million asked
    # for (at least 3, and the 3 s the input's minimum budget takes), plus the 0.2 s the
    # report's rounding can hide.
    steps = max(3, math.ceil((3 - t["setupSeconds"] - eval_s) / per_step_s))
    minutes = (t["setupSeconds"] + eval_s + steps * per_step_s + 0.2) / 60
    asked = {"model": str(tiny), "data": str(tiny_data), **SMALL, "maxSteps": 1_000_000, "maxMinutes": minutes}

    with pytest.raises(BadInput) as refused:  # the default still refuses, naming the steps that fit
        run_preflight(make_job_context(tmp_path / "refused", cpus=2), {**asked, "measured": _measurement(report)})
    assert refused.value.code == "over_budget", refused.value.message
    fit = refused.value.details["fittingMaxSteps"]
    assert refused.value.code == "over_budget" and steps <= fit <= steps + 0.4 / per_step_s

    fitted_ctx = make_job_context(tmp_path / "fitted", cpus=2)
    run_preflight(fitted_ctx, {**asked, "measured": _measurement(report), "whenOverBudget": "fewer_steps"})
    fitted = json.loads((fitted_ctx.output_dir / "preflight.json").read_text())["time"]
    assert fitted["plannedSteps"] == fit and fitted["fittedFrom"] == 1_000_000
    assert fitted["estimatedSeconds"] <= minutes * 60 + 0.1
    assert "the 1000000 steps asked for would take about" in fitted["note"]

    # Without its own time limit, which this budget's last step can meet (stoppedBy "budget").
    untimed = {k: v for k, v in asked.items() if k != "maxMinutes"}
    trained = run("train", {**untimed, "preflight": str(fitted_ctx.output_dir), "evalEverySteps": 1000,
                            "checkpointEverySteps": 1000}, tmp_path / "train")
    assert trained.returncode == 0, trained.describe()
    summary = trained.output_json("training.json")
    assert summary["plannedSteps"] == fit and summary["steps"] == fit and summary["stoppedBy"] == "completed"

    with pytest.raises(BadInput) as wrong:
        run_preflight(make_job_context(tmp_path / "wrong", cpus=2), {**asked, "whenOverBudget": "sometimes"})
    assert wrong.value.code == "invalid_input" and wrong.value.details == {"field": "whenOverBudget"}


def test_a_device_that_is_not_there_is_refused_not_replaced():
    with pytest.raises(BadInput) as refused:
        chosen_device({"device": "mps"})  # Linux never has Metal
    assert refused.value.code == "device_unavailable"


def test_train_reports_finite_losses_and_the_adapter_loads_back_and_changes_the_output(trained, tiny):
    import torch
    from peft import PeftModel
    from transformers import AutoModelForCausalLM

    summary = trained.output_json("training.json")
    assert summary["steps"] == 4 and summary["stoppedBy"] == "completed"
    assert [p["step"] for p in summary["trainLoss"]] == [1, 2, 3, 4]
    assert all(math.isfinite(p["loss"]) for p in summary["trainLoss"] + summary["evalLoss"])
    assert summary["base"]["snapshotSha256"] == json.loads((tiny / "base.json").read_text())["snapshotSha256"]
    metric_events = [e for e in trained.events if e["type"] == "metric" and e["name"] == "train_loss"]
    assert [e["step"] for e in metric_events] == [1, 2, 3, 4] and all(e["tokensPerSecond"] > 0 for e in metric_events)
    assert {"adapter/adapter_model.safetensors", "adapter/adapter_config.json"} <= {
        f["path"] for f in trained.manifest["files"]}
    ids = torch.tensor([[464, 3290, 318, 257, 1332]])
    base = AutoModelForCausalLM.from_pretrained(TINY_GPT2, dtype=torch.float32)
    before = base(ids).logits.detach().clone()
    adapted = PeftModel.from_pretrained(base, trained.output("adapter"))
    after = adapted(ids).logits.detach()
    assert (after - before).abs().max() > 1e-6


def _tree(folder: Path) -> dict[str, str]:
    return {p.relative_to(folder).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def _read_only(folder: Path) -> None:
    for path in [folder, *folder.rglob("*")]:
        path.chmod(0o555 if path.is_dir() else 0o444)


def test_resume_from_takes_a_checkpoint_folder_or_the_newest_complete_one_in_a_folder_of_them(tmp_path):
    for step, complete in ((3, True), (12, True), (20, False)):
        (tmp_path / f"checkpoint-{step}").mkdir()
        if complete:
            (tmp_path / f"checkpoint-{step}" / "trainer_state.json").write_text("{}")
    assert resume_checkpoint(tmp_path) == tmp_path / "checkpoint-12"
    assert resume_checkpoint(tmp_path / "checkpoint-3") == tmp_path / "checkpoint-3"
    for empty in (tmp_path / "checkpoint-20", tmp_path / "checkpoint-3" / "trainer_state.json"):
        with pytest.raises(BadInput) as refused:
            resume_checkpoint(empty)
        assert refused.value.code == "no_checkpoint"


def test_sigterm_saves_a_checkpoint_exits_130_and_a_new_attempt_continues_at_the_saved_step(
        tmp_path, start_job, tiny, tiny_data):
    from recipes.llm_lora.tests.support import RECIPE

    job_input = {"model": str(tiny), "data": str(tiny_data), **SMALL, "maxSteps": 40, "checkpointEverySteps": 1000,
                 "evalEverySteps": 1000}
    running = start_job(RECIPE, "train", job_input, tmp_path / "first", cpus=2)
    deadline = time.monotonic() + 240
    while not [e for e in running.events() if e["type"] == "metric" and e.get("step", 0) >= 2]:
        assert running.proc.poll() is None and time.monotonic() < deadline, "training never reached step 2"
        time.sleep(0.5)
    running.terminate()
    stopped = running.wait(120)
    assert stopped.returncode == 130, stopped.describe()
    checkpoints = sorted(running.paths["checkpoint"].glob("checkpoint-*"))
    assert len(checkpoints) == 1
    saved_step = int(checkpoints[0].name.split("-")[1])
    first_losses = [e["value"] for e in stopped.events if e["type"] == "metric" and e["name"] == "train_loss"]
    assert saved_step >= 2 and len(first_losses) >= saved_step

    # The new attempt gets the earlier attempt's whole checkpoint folder, read only (as the worker
    # lends it), beside a checkpoint whose save was cut off (no trainer_state.json): it is skipped.
    folder = running.paths["checkpoint"]
    (folder / f"checkpoint-{saved_step + 50}").mkdir()
    (folder / f"checkpoint-{saved_step + 50}" / "adapter_config.json").write_text("{}")
    before = _tree(folder)
    _read_only(folder)
    resumed = run("train", {**job_input, "maxSteps": saved_step + 2, "resumeFrom": str(folder)}, tmp_path / "second")
    assert resumed.returncode == 0, resumed.describe()
    assert _tree(folder) == before
    summary = resumed.output_json("training.json")
    assert summary["resumedFromStep"] == saved_step and summary["steps"] == saved_step + 2
    # the loss curve continues: the saved history, then only the new steps
    assert [p["step"] for p in summary["trainLoss"]] == list(range(1, saved_step + 3))
    assert [p["loss"] for p in summary["trainLoss"][:saved_step]] == pytest.approx(first_losses[:saved_step])
    new_events = [e["step"] for e in resumed.events if e["type"] == "metric" and e["name"] == "train_loss"]
    assert new_events == [saved_step + 1, saved_step + 2]


def test_training_batches_are_grouped_by_length_with_the_longest_first(tmp_path, tiny, tiny_data):
    import random

    from peft import get_peft_model

    from recipes.llm_lora.setup import LoraSettings, load_model, tokenised_examples
    from evaluation_lm.template import load_tokenizer
    from recipes.llm_lora.train import _settings, build_trainer

    tokenizer = load_tokenizer(tiny / "model")
    items, _ = tokenised_examples(tokenizer, tiny_data, "train.jsonl", 256)
    settings = _settings({"maxLength": 256, "batchSize": 4, "seed": 0})
    model = get_peft_model(load_model(tiny / "model", "cpu"), LoraSettings.from_input({"rank": 2}).peft_config())
    trainer = build_trainer(model, tokenizer, items, [], settings, "cpu", 10, tmp_path, [])
    batches = list(trainer.get_train_dataloader())
    lengths = [len(i.input_ids) for i in items]
    assert batches[0]["input_ids"].shape[1] == max(lengths)  # an out-of-memory shows at step 1
    real = sum(int(b["attention_mask"].sum()) for b in batches)
    assert real == sum(lengths)  # every example once per epoch
    grouped = real / sum(b["input_ids"].numel() for b in batches)
    shuffled = random.Random(0).sample(lengths, len(lengths))
    unsorted = sum(lengths) / sum(max(shuffled[i:i + 4]) * len(shuffled[i:i + 4]) for i in range(0, len(lengths), 4))
    assert grouped > unsorted + 0.05  # less compute goes to padding than with batches in random order
