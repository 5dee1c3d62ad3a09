"""Entry point: python -m evaluation <baseline|score> --input input.json"""

import sys

from trainyard_recipe import run_recipe

from evaluation.baseline import run_baseline
from evaluation.score import run_score

if __name__ == "__main__":
    sys.exit(run_recipe({"baseline": run_baseline, "score": run_score}))
