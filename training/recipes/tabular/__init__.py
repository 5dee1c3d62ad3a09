"""Tabular recipe: AutoGluon training on a split contract, and prediction from a trained output.

Jobs: `train`, `predict` (see recipe.json for their input schemas).
AutoGluon is imported inside the jobs only, so `import recipes.tabular` stays cheap.
"""

RECIPE_NAME = "tabular"
RECIPE_VERSION = "1.0.0"
