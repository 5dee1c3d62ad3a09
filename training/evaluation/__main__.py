"""Entry point: python -m evaluation <baseline|score|holdout_compare> --input input.json"""

from trainyard_recipe import run_recipe
from trainyard_recipe.runner import exit_without_teardown


# Each job imports only its own stack: the baseline needs pandas, not scikit-learn, whose
# import (with SciPy's) is most of a score job's start (about 0.8 s of CPU on 2 cores).
def _baseline(ctx, inputs: dict) -> dict:
    from evaluation.baseline import run_baseline

    return run_baseline(ctx, inputs)


def _score(ctx, inputs: dict) -> dict:
    from evaluation.score import run_score

    return run_score(ctx, inputs)


def _holdout_compare(ctx, inputs: dict) -> dict:
    from evaluation.holdout import run_holdout_compare

    return run_holdout_compare(ctx, inputs)


if __name__ == "__main__":
    # The scorer starts no child processes; pyarrow's threads once aborted it at exit after a
    # completed baseline (SIGABRT), failing a finished experiment step.
    exit_without_teardown(run_recipe({"baseline": _baseline, "score": _score, "holdout_compare": _holdout_compare}))
