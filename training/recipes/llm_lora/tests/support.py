"""Paths and the job runner the llm_lora tests share (conftest.py holds the fixtures)."""

from __future__ import annotations

from pathlib import Path

from conftest import REPO, start_recipe_job  # training/conftest.py

TINY_GPT2 = REPO / "tests" / "fixtures" / "models" / "lm-buddy-fake-gpt2"
DATA = Path(__file__).resolve().parent / "fixtures"
RECIPE = "llm_lora"
# Settings small enough for the tiny GPT-2 on CPU (every test that trains it uses these).
SMALL = {"device": "cpu", "maxLength": 64, "batchSize": 2, "rank": 2, "learningRate": 0.05, "seed": 0}
EVALUATE = {"device": "cpu", "maxLength": 64, "generations": 2, "maxNewTokens": 4, "answerPattern": "#### (\\S+)",
            "answerExamples": 2}


def run(job: str, job_input: dict, root: Path, timeout: float = 300, extra_env: dict[str, str] | None = None):
    return start_recipe_job(RECIPE, job, job_input, root, cpus=2, extra_env=extra_env).wait(timeout)
