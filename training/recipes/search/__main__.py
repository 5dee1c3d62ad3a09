"""Entry point: python -m recipes.search suggest --input input.json"""

import sys

from trainyard_recipe import run_recipe

from recipes.search.suggest import run_suggest

if __name__ == "__main__":
    sys.exit(run_recipe({"suggest": run_suggest}))
