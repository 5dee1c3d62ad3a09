"""Leakage suspects: columns that give the target away.

1. Single-column predictors, scored on a holdout: learn per-category (or per-quantile-bin)
   target rates/means on 70 % of the rows, score the other 30 %. ROC AUC ≥ 0.99
   (classification, macro one-vs-rest for multiclass) or R² ≥ 0.98 (regression) means the
   column alone nearly is the answer. Learned on one part and scored on another, so an
   id column (every value unseen) scores like chance, not like a perfect lookup.
2. Regression only: arithmetic parts or totals. Among the 20 numeric columns most
   correlated with the target, sums and differences of up to three (unit coefficients,
   no fitting) that leave a residual which is one constant on ≥ 99 % of rows (an exact
   total), or at most 20 distinct values on ≥ 99 % of rows while the target has > 100
   (a total that also adds a surcharge from a short list: taxis' total = fare + tip +
   tolls + 0.30/0.50/2.50 extras never matches exactly). Tolerance: 0.01 absolute, less
   for targets on a small scale. Also a column that is a linear copy (|r| ≥ 0.9999).
"""

from __future__ import annotations

import itertools
from typing import Any

import numpy as np
import pandas as pd

AUC_LIMIT = 0.99
R2_LIMIT = 0.98
MIN_HOLDOUT_ROWS = 20
SEARCH_COLUMNS = 20
SEARCH_SAMPLE_ROWS = 5000
MATCH_SHARE = 0.99
SURCHARGE_VALUES = 20


def _auc(scores: np.ndarray, positive: np.ndarray) -> float | None:
    """ROC AUC via ranks (ties count half), no scikit-learn needed."""
    n_pos = int(positive.sum())
    n_neg = len(positive) - n_pos
    if n_pos == 0 or n_neg == 0:
        return None
    ranks = pd.Series(scores).rank(method="average").to_numpy()
    return float((ranks[positive].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg))


def _keys(series: pd.Series, train: np.ndarray, column_type: str) -> pd.Series:
    """Group keys: quantile bins (edges from the training rows only) or the values themselves."""
    if column_type == "numeric" or (column_type in ("id_like", "boolean") and pd.api.types.is_numeric_dtype(series)):
        values = series.astype(float)
        train_values = values[train].dropna()
        if train_values.empty:
            return pd.Series("<NA>", index=series.index)
        bins = int(min(100, max(10, len(train_values) // 20)))
        edges = np.unique(np.quantile(train_values, np.linspace(0, 1, bins + 1)))
        codes = np.digitize(values.fillna(np.nan), edges[1:-1])
        keys = pd.Series(codes.astype(str), index=series.index)
        return keys.where(values.notna(), "<NA>")
    return series.astype("string").fillna("<NA>").astype(str)


def holdout_split(n: int, seed: int = 0) -> np.ndarray:
    """Boolean mask of training rows (70 %), the rest is the holdout."""
    order = np.random.default_rng(seed).permutation(n)
    mask = np.zeros(n, dtype=bool)
    mask[order[: int(round(n * 0.7))]] = True
    return mask


def single_column_score(keys: pd.Series, target: pd.Series, train: np.ndarray, task: str) -> float | None:
    test = ~train
    if test.sum() < MIN_HOLDOUT_ROWS:
        return None
    if task == "regression":
        y = target.astype(float)
        means = y[train].groupby(keys[train]).mean()
        predicted = keys[test].map(means).fillna(y[train].mean()).to_numpy()
        actual = y[test].to_numpy()
        total = ((actual - actual.mean()) ** 2).sum()
        return None if total == 0 else float(1 - ((actual - predicted) ** 2).sum() / total)
    y = target.astype(str)
    classes = sorted(y[test].unique())
    if len(classes) < 2:
        return None
    rates = pd.crosstab(keys[train], y[train], normalize="index")
    prior = y[train].value_counts(normalize=True)
    aucs = []
    for cls in classes[:1] if len(classes) == 2 else classes:
        column = rates[cls] if cls in rates.columns else pd.Series(dtype=float)
        scores = keys[test].map(column).fillna(prior.get(cls, 0.0)).to_numpy(dtype=float)
        auc = _auc(scores, (y[test] == cls).to_numpy())
        if auc is not None:
            aucs.append(auc)
    return float(np.mean(aucs)) if aucs else None


def single_column_suspects(frame: pd.DataFrame, target: str, task: str, types: dict[str, str],
                           seed: int = 0) -> list[dict[str, Any]]:
    labelled = frame[frame[target].notna()].reset_index(drop=True)
    train = holdout_split(len(labelled), seed)
    found = []
    for name in labelled.columns:
        if name == target or types.get(name) in ("empty", "text") or labelled[name].nunique() <= 1:
            continue
        score = single_column_score(_keys(labelled[name], train, types.get(name, "")), labelled[target], train, task)
        limit = R2_LIMIT if task == "regression" else AUC_LIMIT
        if score is not None and score >= limit:
            metric = "R²" if task == "regression" else "ROC AUC"
            found.append({"columns": [name], "exclude": [name], "score": round(score, 4), "metric": metric,
                          "reason": f"{name} alone predicts {target} with {metric} {score:.3f} on held-out rows"})
    return found


def _tolerance(y: np.ndarray) -> float:
    spread = float(np.std(y))
    return max(1e-9, min(0.01, 1e-3 * spread)) if spread > 0 else 0.01


def _residual_match(residual: np.ndarray, tol: float, target_distinct: int) -> tuple[str, float] | None:
    codes = np.rint(residual / tol).astype(np.int64)
    counts = np.sort(np.unique(codes, return_counts=True)[1])[::-1]
    top1 = counts[0] / len(codes)
    if top1 >= MATCH_SHARE:
        return "exact", float(top1)
    coverage = counts[:SURCHARGE_VALUES].sum() / len(codes)
    if coverage >= MATCH_SHARE and target_distinct > 5 * SURCHARGE_VALUES:
        return "surcharge", float(coverage)
    return None


def _formula(target: str, cols: tuple[str, ...], signs: tuple[int, ...]) -> str:
    terms = " ".join(("+ " if s > 0 else "- ") + c for c, s in zip(cols, signs)).lstrip("+ ")
    return f"{target} ≈ {terms}"


def arithmetic_suspects(frame: pd.DataFrame, target: str, types: dict[str, str], seed: int = 0) -> list[dict[str, Any]]:
    """Regression targets only: columns that are the target's parts or totals (see module doc)."""
    numeric = [c for c in frame.columns if c != target and types.get(c) == "numeric"
               and frame[c].notna().mean() >= 0.95 and frame[c].nunique() > 1]
    y_all = frame[target].astype(float)
    if not numeric or y_all.nunique() <= 1:
        return []
    corr = frame[numeric].astype(float).corrwith(y_all).abs().fillna(0).sort_values(ascending=False)
    candidates = list(corr.index[:SEARCH_COLUMNS])
    found: list[dict[str, Any]] = []
    for name in candidates:
        if corr[name] >= 0.9999:
            found.append({"columns": [name], "exclude": [name], "kind": "linear_copy",
                          "reason": f"{name} is a linear copy of {target} (correlation {corr[name]:.5f})"})
    rows = frame[[target, *candidates]].dropna()
    if len(rows) > SEARCH_SAMPLE_ROWS:
        rows = rows.sample(SEARCH_SAMPLE_ROWS, random_state=seed)
    y = rows[target].to_numpy(dtype=float)
    x = {c: rows[c].to_numpy(dtype=float) for c in candidates}
    tol, y_var, target_distinct = _tolerance(y), float(np.var(y)), int(pd.Series(y).nunique())
    matched_sets: list[set[str]] = [set(f["columns"]) for f in found]
    for size in (1, 2, 3):
        for cols in itertools.combinations(candidates, size):
            if any(s <= set(cols) for s in matched_sets):
                continue  # a smaller combination already explains it
            for signs in itertools.product((1, -1), repeat=size):
                combo = sum(s * x[c] for c, s in zip(cols, signs))
                residual = y - combo
                if np.var(residual) >= 0.5 * y_var:
                    continue  # the combination does not track the target at all
                match = _residual_match(residual, tol, target_distinct)
                if match is None:
                    continue
                kind, share = match
                plus = [c for c, s in zip(cols, signs) if s > 0]
                exclude = plus if len(plus) == 1 and size > 1 else list(cols)
                offset = float(np.median(residual))
                found.append({"columns": list(cols), "exclude": exclude, "kind": kind, "share": round(share, 4),
                              "formula": _formula(target, cols, signs), "offset": round(offset, 4),
                              "reason": (f"{_formula(target, cols, signs)}"
                                         f"{' + a constant' if kind == 'exact' and abs(offset) > tol else ''}"
                                         f"{' + a few fixed amounts' if kind == 'surcharge' else ''}"
                                         f" on {share:.1%} of rows")})
                matched_sets.append(set(cols))
                break
    return found
