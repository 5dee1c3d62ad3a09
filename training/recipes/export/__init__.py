"""Export recipe: package a scored tabular model as a verified archive (standard library only)."""

RECIPE_NAME = "export"
RECIPE_VERSION = "1.0.0"
