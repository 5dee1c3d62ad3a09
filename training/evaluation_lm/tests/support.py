"""Paths, settings and the job runner the evaluation_lm tests share (conftest.py holds the fixtures)."""

from __future__ import annotations

from conftest import REPO, start_recipe_job  # training/conftest.py

TINY_GPT2 = REPO / "tests" / "fixtures" / "models" / "lm-buddy-fake-gpt2"
DATA = REPO / "training" / "recipes" / "llm_lora" / "tests" / "fixtures"
SCORE = {"device": "cpu", "maxLength": 64, "generations": 2, "maxNewTokens": 4, "answerPattern": "#### (\\S+)",
         "answerExamples": 2}


def run(recipe: str, job: str, job_input: dict, root, timeout: float = 300):
    return start_recipe_job(recipe, job, job_input, root, cpus=2).wait(timeout)


