"""SIGTERM mid-training, and the `improve` preset (tuning bounded by trials and time)."""

from __future__ import annotations

import os
import time

import pytest

from conftest import start_recipe_job
from recipes.tabular.tests import pipeline


@pytest.fixture(scope="session")
def diamonds(tmp_path_factory):
    return pipeline.get("diamonds", tmp_path_factory)


@pytest.fixture(scope="session")
def penguins_sex(tmp_path_factory):
    return pipeline.get("penguins_sex", tmp_path_factory)


def processes_in_group(pgid: int) -> list[int]:
    """Live (non-zombie) processes whose process group is pgid, read from /proc."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="utf-8") as handle:
                fields = handle.read().rsplit(")", 1)[1].split()
        except (FileNotFoundError, ProcessLookupError, IndexError):
            continue
        state, pgrp = fields[0], int(fields[2])
        if pgrp == pgid and state != "Z":
            found.append(int(entry))
    return found


def wait_for(condition, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"timed out after {timeout} s waiting for {what}")


def test_sigterm_mid_training_exits_130_and_leaves_nothing(diamonds, tmp_path):
    # a long budget so that training is surely still going when the signal comes
    payload = {**diamonds.train_input, "timeLimitSeconds": 600}
    job = start_recipe_job("tabular", "train", payload, tmp_path, cpus=2)
    try:
        wait_for(lambda: any(e["type"] == "metric" for e in job.events()), 120, "the first fitted model")
        assert job.proc.poll() is None, "training finished before it could be stopped"
        signalled = time.monotonic()
        job.terminate()
        result = job.wait(60)
        stop_seconds = time.monotonic() - signalled
    finally:
        if job.proc.poll() is None:
            os.killpg(job.proc.pid, 9)
    assert result.returncode == 130, result.describe()
    assert result.report["status"] == "failed" and result.report["error"]["code"] == "stopped"
    assert list(result.output_dir.iterdir()) == [], "a stopped job must leave no partial outputs"
    assert stop_seconds < 20, f"the job took {stop_seconds:.1f} s to stop after SIGTERM"
    wait_for(lambda: not processes_in_group(job.proc.pid), 10, "the job's process group to be gone")


def test_improve_preset_tunes_within_the_budget(penguins_sex, tmp_path):
    payload = {**penguins_sex.train_input, "preset": "improve", "numTrials": 3, "timeLimitSeconds": 40}
    result = pipeline.run("tabular", "train", payload, tmp_path)
    training = result.output_json("training.json")
    assert training["preset"] == "improve" and training["numTrials"] == 3
    assert training["wallSeconds"] < 40
    models = [m["model"] for m in result.output_json("leaderboard.json")["models"]]
    assert any("/T" in name for name in models), models  # tuned trials are named <model>/T<n>
    assert training["validationScore"] > 0.8
