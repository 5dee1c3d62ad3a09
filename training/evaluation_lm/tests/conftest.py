"""Fixtures of the evaluation_lm tests (they run in llm_lora's test venv: run_pytests.py).

The evaluator scores what the llm-lora recipe produced, so its inputs are made by that
recipe's own jobs run as subprocesses (the evaluator's code never imports it): the tiny
random GPT-2 imported, the GSM8K fixture checked against it, and 4 training steps.
"""

from __future__ import annotations

import pytest

from evaluation_lm.tests.support import DATA, SCORE, TINY_GPT2, run


def done(result):
    assert result.returncode == 0, result.describe()
    return result.output_dir


@pytest.fixture(scope="session")
def tiny(tmp_path_factory):
    return done(run("llm_lora", "import_base", {"source": str(TINY_GPT2), "name": "tiny-gpt2"},
                    tmp_path_factory.mktemp("tiny")))


@pytest.fixture(scope="session")
def tiny_data(tmp_path_factory, tiny):
    return done(run("llm_lora", "check_data", {"model": str(tiny), "data": str(DATA / "gsm8k-prompt-completion.jsonl"),
                                               "evalFraction": 0.15, "seed": 3, "maxLength": 96},
                    tmp_path_factory.mktemp("tiny-data")))


def train_adapter(root, tiny, tiny_data, learning_rate: float, seed: int, steps: int):
    """A few LoRA steps on the tiny GPT-2 by llm_lora's own train job."""
    return done(run("llm_lora", "train", {"model": str(tiny), "data": str(tiny_data), "device": "cpu", "maxLength": 64,
                                          "batchSize": 2, "rank": 2, "learningRate": learning_rate, "seed": seed,
                                          "maxSteps": steps, "evalEverySteps": steps, "checkpointEverySteps": 100}, root))


@pytest.fixture(scope="session")
def trained(tmp_path_factory, tiny, tiny_data):
    return train_adapter(tmp_path_factory.mktemp("train"), tiny, tiny_data, learning_rate=0.05, seed=0, steps=4)


@pytest.fixture(scope="session")
def scored(tmp_path_factory, tiny, tiny_data, trained):
    result = run("evaluation_lm", "score", {"model": str(tiny), "adapter": str(trained), "data": str(tiny_data),
                                            **SCORE}, tmp_path_factory.mktemp("score"))
    done(result)
    return result
