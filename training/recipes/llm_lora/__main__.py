"""Entry point: python -m recipes.llm_lora <job> --input input.json"""

import sys

from trainyard_recipe import run_recipe

from .answer import run_generate
from .check_data import run_check_data
from .export import run_export
from .holdout_examples import run_holdout_examples
from .import_base import run_import_base
from .merge import run_merge
from .preflight import run_preflight
from .profile_examples import run_profile_examples
from .train import run_train

if __name__ == "__main__":
    sys.exit(run_recipe({"profile_examples": run_profile_examples, "import_base": run_import_base,
                         "check_data": run_check_data, "preflight": run_preflight, "train": run_train,
                         "export": run_export, "generate": run_generate,
                         "merge": run_merge, "holdout_examples": run_holdout_examples}))
