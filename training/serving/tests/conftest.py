"""Releases the serving tests load: a real AutoGluon export of penguins (the tabular chain and
export.package as subprocess jobs) and a real llm-lora export of the tiny GPT-2 (import_base,
check_data, 4 training steps, evaluation_lm.score, export as subprocess jobs)."""

from __future__ import annotations

import pytest

from conftest import REPO, start_recipe_job  # training/conftest.py
from recipes.tabular.tests import pipeline

TINY_GPT2 = REPO / "tests" / "fixtures" / "models" / "lm-buddy-fake-gpt2"
LORA_DATA = REPO / "training" / "recipes" / "llm_lora" / "tests" / "fixtures" / "gsm8k-prompt-completion.jsonl"


@pytest.fixture(scope="session")
def penguins_export(tmp_path_factory):
    penguins = pipeline.get("penguins", tmp_path_factory)
    payload = {"model": str(penguins.model_dir), "receipt": str(penguins.score.output_dir),
               "baselineReceipt": str(penguins.baseline_score.output_dir / "receipt.json")}
    return pipeline.run("export", "package", payload, tmp_path_factory.mktemp("serve-export")).output("export.tar.gz")


def _lora(job: str, payload: dict, root, recipe: str = "llm_lora"):
    result = start_recipe_job(recipe, job, payload, root, cpus=2).wait(300)
    assert result.returncode == 0, result.describe()
    return result.output_dir


@pytest.fixture(scope="session")
def tiny_lora(tmp_path_factory):
    """(export archive, import_base output folder) of a 4-step LoRA on the tiny GPT-2."""
    root = tmp_path_factory.mktemp("serve-lora")
    small = {"device": "cpu", "maxLength": 64, "batchSize": 2, "rank": 2, "learningRate": 0.05, "seed": 0}
    base = _lora("import_base", {"source": str(TINY_GPT2)}, root)
    data = _lora("check_data", {"model": str(base), "data": str(LORA_DATA), "evalFraction": 0.15, "seed": 3,
                                "maxLength": 96}, root)
    adapter = _lora("train", {"model": str(base), "data": str(data), **small, "maxSteps": 4, "evalEverySteps": 4,
                              "checkpointEverySteps": 100}, root)
    receipt = _lora("score", {"model": str(base), "adapter": str(adapter), "data": str(data), "device": "cpu",
                              "maxLength": 64, "generations": 1, "maxNewTokens": 4}, root, recipe="evaluation_lm")
    export = _lora("export", {"model": str(base), "adapter": str(adapter), "receipt": str(receipt), "checks": str(data),
                              "name": "tiny"}, root)
    return export / "export.tar.gz", base
