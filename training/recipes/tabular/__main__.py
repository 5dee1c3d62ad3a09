"""Entry point: python -m recipes.tabular <train|predict> --input input.json"""

import sys

from trainyard_recipe import run_recipe

from recipes.tabular.predict import run_predict
from recipes.tabular.train import run_train

if __name__ == "__main__":
    sys.exit(run_recipe({"train": run_train, "predict": run_predict}))
