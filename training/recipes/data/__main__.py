"""Entry point: PYTHONPATH=training python -m recipes.data <job> --input input.json

Jobs: profile, checks, split, features, reference, holdout_rows, newest_rows (see recipe.json for their input schemas).
"""

from trainyard_recipe.runner import run_recipe

from recipes.data.checks import checks_job
from recipes.data.features import features_job
from recipes.data.holdout import holdout_rows_job
from recipes.data.newest import newest_rows_job
from recipes.data.profile import profile_job
from recipes.data.reference import reference_job
from recipes.data.split import split_job

JOBS = {"profile": profile_job, "checks": checks_job, "split": split_job, "features": features_job,
        "reference": reference_job, "holdout_rows": holdout_rows_job, "newest_rows": newest_rows_job}

if __name__ == "__main__":
    raise SystemExit(run_recipe(JOBS))
