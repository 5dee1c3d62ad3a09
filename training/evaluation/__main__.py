"""Entry point: python -m evaluation <baseline|score> --input input.json"""

from trainyard_recipe import run_recipe
from trainyard_recipe.runner import exit_without_teardown

from evaluation.baseline import run_baseline
from evaluation.score import run_score

if __name__ == "__main__":
    # The scorer starts no child processes; pyarrow's threads once aborted it at exit after a
    # completed baseline (SIGABRT), failing a finished experiment step.
    exit_without_teardown(run_recipe({"baseline": run_baseline, "score": run_score}))
