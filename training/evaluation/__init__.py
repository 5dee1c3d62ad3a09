"""Trusted evaluation recipe: baselines and scoring receipts.

Kept apart from training code on purpose: it imports scikit-learn, numpy and pandas
only (never AutoGluon), so the numbers in a receipt do not depend on the library that
produced the predictions.
"""

RECIPE_NAME = "evaluation"
RECIPE_VERSION = "1.0.0"
