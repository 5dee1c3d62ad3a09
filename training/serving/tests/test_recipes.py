"""The serving recipes run in the environments the tabular and llm-lora recipes already have:
their recipe.json names those recipes' own requirements files, so the worker's environment id
(sha256 of python version + requirements bytes) is the same and nothing new is built."""

import json

import pytest

from conftest import TRAINING


@pytest.mark.parametrize("kind, recipe", [("tabular", "tabular"), ("llm", "llm_lora")])
def test_a_serving_recipe_uses_its_training_recipes_requirements_file(kind, recipe):
    folder = TRAINING / "serving" / kind
    spec = json.loads((folder / "recipe.json").read_text(encoding="utf-8"))
    assert (folder / spec["requirements"]).resolve() == (TRAINING / "recipes" / recipe / "requirements.txt").resolve()
    assert spec["module"] == f"serving.{kind}" and spec["resident"] is True and list(spec["jobs"]) == ["serve"]
