"""Entry point: python -m serving.llm serve --input input.json (the llm Python environment)."""

import sys

from trainyard_recipe import run_recipe
from trainyard_recipe.runner import exit_without_teardown

from serving.serve import job

if __name__ == "__main__":
    exit_without_teardown(run_recipe({"serve": job("llm")}))
