"""data.checks: suggest the task and metric for a target, and list the data issues that
affect it (checks.json). Each issue: {code, columns, severity: info|warning|high, message,
recommendedAction: {kind: exclude_columns|time_split|group_split|drop_rows|none, ...}}.
"""

from __future__ import annotations

import re
from typing import Any

import pandas as pd

from trainyard_recipe.atomic import write_json_atomic
from trainyard_recipe.errors import BadInput
from trainyard_recipe.events import emit
from trainyard_recipe.runner import requires

from recipes.data.columns import column_types, parse_datetimes
from recipes.data.inputs import fractions_from_input, load_frame, require_column
from recipes.data.leakage import arithmetic_suspects, single_column_suspects
from recipes.data.task import suggest_metric, suggest_task

IMBALANCE_SHARE = 0.10
MIN_TEST_ROWS_PER_CLASS = 10
# names of columns that usually identify a repeated entity (a person, a store, a device)
ENTITY_NAME = re.compile(
    r"(^|[_\s.-])(id|ids|subject|patient|user|customer|client|participant|person|member|account|session|"
    r"household|family|store|shop|device|machine|player|team|station|site|animal|individual|group|batch)"
    r"([_\s.-]|$)|(?-i:[a-z]Id|ID)$", re.IGNORECASE)
CODE_VALUE = re.compile(r"^([A-Za-z_#-]*?)[-_ ]?(\d+)$")


def _issue(code: str, affected: list[str], severity: str, message: str, kind: str = "none",
           **action: Any) -> dict[str, Any]:
    """action: the recommended action's own fields (`columns` to leave out, or a `column`)."""
    return {"code": code, "columns": affected, "severity": severity, "message": message,
            "recommendedAction": {"kind": kind, **action}}


def _looks_like_codes(values: pd.Series) -> bool:
    """Values like s13, P-0042, 1017: a prefix (at most 3 distinct ones) and a number."""
    strings = values.astype(str).drop_duplicates().head(500)
    matches = strings.str.extract(CODE_VALUE)
    matched = matches[1].notna()
    return matched.mean() >= 0.9 and matches.loc[matched, 0].nunique() <= 3


def group_candidates(frame: pd.DataFrame, target: str, types: dict[str, str]) -> list[dict[str, Any]]:
    found = []
    n = len(frame)
    for name, kind in types.items():
        if name == target or kind not in ("categorical", "id_like", "numeric"):
            continue
        values = frame[name].dropna()
        distinct = values.nunique()
        if distinct < 5 or distinct > n / 2:
            continue
        if kind == "numeric" and not ENTITY_NAME.search(name):
            continue  # a number is an entity id only when its name says so
        if not (ENTITY_NAME.search(name) or _looks_like_codes(values)):
            continue
        per_value = values.value_counts()
        if per_value.median() < 2:
            continue
        found.append({"column": name, "groups": int(distinct), "medianRows": float(per_value.median())})
    return found


def _pct(part: float, whole: float) -> str:
    share = 100 * part / whole if whole else 0
    return f"{share:.1f}%" if share < 10 else f"{share:.0f}%"


# What the chain really does with a missing feature value (checked in AutoGluon 1.6's model
# code): nothing is filled in before training; LightGBM and CatBoost treat "missing" as a
# value of its own (CatBoost: a missing category becomes the category "__NaN__"), and the
# random forest / extra trees models fill it with 0.
MISSING_FEATURES_HANDLING = ("the rows are kept and nothing is filled in: the boosted-tree models (LightGBM, "
                             "CatBoost) treat a missing value as information of its own, and the forest models "
                             "read it as 0. New rows with gaps get the same treatment at prediction time")
MISSING_WARNING_SHARE = 0.2


def _missing_value_issues(frame: pd.DataFrame, target: str, types: dict[str, str]) -> list[dict[str, Any]]:
    """One issue for the feature columns with missing values (an all-missing column is constant_column's)."""
    n = len(frame)
    counts = frame.drop(columns=[target]).isna().sum()
    gaps = [(str(c), int(k)) for c, k in counts.items() if 0 < k < n and types.get(str(c)) != "empty"]
    if not gaps:
        return []
    gaps.sort(key=lambda item: -item[1])
    listed = ", ".join(f"{c} {k:,} ({_pct(k, n)})" for c, k in gaps)
    severity = "warning" if gaps[0][1] / n >= MISSING_WARNING_SHARE else "info"
    columns = [c for c, _ in gaps]
    found = _issue("missing_values", columns, severity,
                   f"missing values in {len(columns)} column{'s' if len(columns) > 1 else ''}: {listed}. "
                   f"{MISSING_FEATURES_HANDLING}")
    found["missingCounts"] = {c: k for c, k in gaps}
    return [found]


def _data_issues(frame: pd.DataFrame, target: str, types: dict[str, str]) -> list[dict[str, Any]]:
    issues = []
    n = len(frame)
    missing = int(frame[target].isna().sum())
    if missing:
        issues.append(_issue("missing_target", [target], "warning",
                             f"{missing:,} rows ({_pct(missing, n)}) have no value in {target}; they are left out "
                             "of training and evaluation", "drop_rows"))
    issues += _missing_value_issues(frame, target, types)
    duplicates = int(frame.duplicated(keep="first").sum())
    if duplicates:
        issues.append(_issue("duplicate_rows", [], "warning" if duplicates / n >= 0.01 else "info",
                             f"{duplicates:,} rows are exact copies of earlier rows; the split keeps the first of "
                             "each and leaves the copies out, so one row cannot sit on both sides", "drop_rows"))
    constant = [c for c in frame.columns if c != target and frame[c].nunique(dropna=True) <= 1]
    if constant:
        issues.append(_issue("constant_column", constant, "info",
                             f"{', '.join(constant)} {'has' if len(constant) == 1 else 'have'} a single value "
                             "(or none) and cannot help a model", "exclude_columns", columns=constant))
    ids = [c for c, t in types.items() if c != target and t == "id_like"]
    if ids:
        issues.append(_issue("id_like_column", ids, "warning",
                             f"{', '.join(ids)} {'looks' if len(ids) == 1 else 'look'} like row identifiers "
                             "(every value different); a model would memorize them instead of learning",
                             "exclude_columns", columns=ids))
    return issues


def _structure_issues(frame: pd.DataFrame, target: str, types: dict[str, str]) -> list[dict[str, Any]]:
    issues = []
    times = [c for c, t in types.items() if c != target and t == "datetime"]
    if times:
        column = times[0]
        parsed = parse_datetimes(frame[column]).dropna()
        span = f" from {parsed.min().date()} to {parsed.max().date()}" if len(parsed) else ""
        issues.append(_issue("time_column", times, "warning",
                             f"{column} holds dates{span}; a random split would let rows from the future help "
                             "predict the past. A time split keeps the latest rows for testing", "time_split",
                             column=column))
    for group in group_candidates(frame, target, types):
        column = group["column"]
        issues.append(_issue("group_column", [column], "warning",
                             f"{column} has {group['groups']:,} values that repeat (about {group['medianRows']:.0f} "
                             f"rows each); rows of one {column} resemble each other, so a random split would test "
                             f"on {column}s the model has already seen. A group split keeps each {column} on one side",
                             "group_split", column=column))
    return issues


def _class_issues(y: pd.Series, task: str, test_fraction: float) -> list[dict[str, Any]]:
    issues = []
    counts = y.value_counts()
    n = int(counts.sum())
    if task == "regression":
        if n * test_fraction < MIN_TEST_ROWS_PER_CLASS:
            issues.append(_issue("too_few_rows", [], "high", f"only {n:,} labelled rows: a {test_fraction:.0%} test "
                                 f"partition would hold about {n * test_fraction:.0f}, too few to measure a model"))
        return issues
    smallest, smallest_count = str(counts.index[-1]), int(counts.iloc[-1])
    if smallest_count / n < IMBALANCE_SHARE:
        issues.append(_issue("class_imbalance", [y.name], "warning",
                             f"the smallest class, {smallest}, is {_pct(smallest_count, n)} of rows "
                             f"({smallest_count:,} of {n:,}); the metric and the split account for it"))
    few = [(str(k), int(v)) for k, v in counts.items() if v * test_fraction < MIN_TEST_ROWS_PER_CLASS]
    if few:
        listed = ", ".join(f"{k} ({v:,} rows → about {v * test_fraction:.0f})" for k, v in few)
        issues.append(_issue("too_few_rows", [y.name], "warning",
                             f"a {test_fraction:.0%} test partition would hold fewer than {MIN_TEST_ROWS_PER_CLASS} "
                             f"rows of: {listed}; scores for these classes will be noisy"))
    return issues


def _leakage_issues(frame: pd.DataFrame, target: str, task: str, types: dict[str, str]) -> list[dict[str, Any]]:
    suspects = single_column_suspects(frame, target, task, types)
    if task == "regression":
        known = {c for s in suspects for c in s["columns"]}
        suspects += [s for s in arithmetic_suspects(frame[frame[target].notna()], target, types)
                     if not set(s["exclude"]) <= known]
    issues = []
    for suspect in suspects:
        exclude = suspect["exclude"]
        issues.append(_issue("leakage_suspect", suspect["columns"], "high",
                             f"{suspect['reason']}: it likely contains the answer and would not be known at "
                             f"prediction time. Leave out {', '.join(exclude)}", "exclude_columns", columns=exclude))
    return issues


@requires("dataset", "datasetFormat", "target")
def checks_job(ctx, job_input: dict[str, Any]) -> dict[str, Any]:
    frame, _fmt = load_frame(job_input)
    target = require_column(frame, job_input.get("target"), "target")
    fractions = fractions_from_input(job_input.get("fractions"))
    emit(ctx, "phase", phase="preparing_data", step="checks", target=target)
    types = column_types(frame)
    y = frame[target].dropna()
    task, task_reason = suggest_task(target, y, types[target])
    positive = None
    counts: dict[str, int] | None = None
    if task != "regression":
        labels = y.astype(str)
        counts = {str(k): int(v) for k, v in labels.value_counts().items()}
        if task == "binary":
            positive = job_input.get("positiveClass")
            if positive is not None and str(positive) not in counts:
                raise BadInput(f"positiveClass {positive!r} is not a value of {target}; values: "
                               f"{', '.join(counts)}", code="unknown_class")
            positive = str(positive) if positive is not None else min(counts, key=lambda k: (counts[k], k))
    metric, direction, metric_reason = suggest_metric(target, y, task, counts, positive)
    issues = _data_issues(frame, target, types) + _structure_issues(frame, target, types)
    issues += _class_issues(y.astype(str) if task != "regression" else y, task, fractions["test"])
    emit(ctx, "progress", step="leakage")
    issues += _leakage_issues(frame, target, task, types)
    order = {"high": 0, "warning": 1, "info": 2}
    issues.sort(key=lambda issue: order[issue["severity"]])
    result = {
        "version": 1, "target": target, "rows": int(len(frame)), "labelledRows": int(len(y)),
        "task": task, "taskReason": task_reason,
        "metric": metric, "metricDirection": direction, "metricReason": metric_reason,
        "positiveClass": positive, "classCounts": counts,
        "columnTypes": types, "issues": issues,
    }
    write_json_atomic(ctx.output_dir / "checks.json", result)
    return {"task": task, "metric": metric, "issues": len(issues),
            "highIssues": sum(1 for i in issues if i["severity"] == "high")}
