"""One torch environment for training and judging: the evaluator's recipe.json names
llm_lora's requirements file, so the worker's environment id (python version + those bytes)
is the same for both recipes and no second multi-GB environment is built."""

from __future__ import annotations

import json
import sys
from pathlib import Path

TRAINING = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(TRAINING / "tools"))
import build_env  # noqa: E402


def _requirements(recipe_dir: Path) -> Path:
    return (recipe_dir / json.loads((recipe_dir / "recipe.json").read_text())["requirements"]).resolve()


def test_the_evaluator_builds_no_environment_of_its_own():
    lm, lora = _requirements(TRAINING / "evaluation_lm"), _requirements(TRAINING / "recipes" / "llm_lora")
    assert lm == lora and lm.is_file()
    _, path, requirements = build_env.load_recipe(TRAINING / "evaluation_lm")
    assert path.resolve() == lora and requirements == lora.read_bytes()
