"""Entry point: python -m evaluation_lm score --input input.json"""

from trainyard_recipe import run_recipe
from trainyard_recipe.runner import exit_without_teardown

from evaluation_lm.holdout import run_holdout_compare
from evaluation_lm.score import run_score

if __name__ == "__main__":
    # The scorer starts no child processes; torch's OpenMP threads must not turn a finished
    # receipt into a failed job at interpreter teardown.
    exit_without_teardown(run_recipe({"score": run_score, "holdout_compare": run_holdout_compare}))
