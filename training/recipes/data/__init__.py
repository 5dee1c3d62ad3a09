"""The `data` recipe: profile, checks, split and features for tabular datasets."""
