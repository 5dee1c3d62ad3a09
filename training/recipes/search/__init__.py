"""Search recipe: propose a bounded search's next trial with Optuna's TPE (issue 17)."""

RECIPE_NAME = "search"
RECIPE_VERSION = "1.0.0"
