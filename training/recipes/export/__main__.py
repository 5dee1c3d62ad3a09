"""Entry point: python -m recipes.export package --input input.json"""

import sys

from trainyard_recipe import run_recipe

from recipes.export.package import run_package

if __name__ == "__main__":
    sys.exit(run_recipe({"package": run_package}))
