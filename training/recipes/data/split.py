"""data.split: assign every row to train / validation / test / excluded (split.json +
partition.csv, docs/dev/contracts.md "Split contract").

Before assignment, exact duplicate rows are excluded (the first is kept) so one row cannot
sit on both sides, and rows with a missing target are excluded. Strategies:
  random — classification is stratified: each class is shuffled (seeded) and cut by the
           fractions with largest-remainder rounding, so every partition keeps each class's
           share of the whole within a row or so;
  group  — whole groups are assigned, so no group value is in two partitions;
  time   — rows sorted by time; validation and test hold only rows later than every
           training row (ties at a boundary stay together); the cutoff is recorded.

Reserved holdouts (input `holdouts`, issue 32) are kept out before assignment: a row equal
to a holdout row (trainyard_recipe/row_hashes.py, over the columns both have), a row of a
group the holdout has (group split), and a row at or after the holdout's first time (time
split) are excluded, with the counts in split.json. trained_rows.txt lists the hashes of
every row assigned to train, validation or test: what a model of this split learnt, tuned
and was tested on, which a later holdout comparison checks against.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pandas as pd

from trainyard_recipe.atomic import write_json_atomic
from trainyard_recipe.errors import BadInput
from trainyard_recipe.events import emit
from trainyard_recipe.hashing import sha256_file
from trainyard_recipe.row_hashes import row_hashes, write_rows_file
from trainyard_recipe.runner import requires
from trainyard_recipe.tables import normalize_table_format, read_table

from recipes.data.columns import parse_datetimes
from recipes.data.inputs import dataset_path, fractions_from_input, load_frame, require_column

PARTS = ("train", "validation", "test")
TASKS = ("binary", "multiclass", "regression")


def _cut_counts(n: int, fractions: dict[str, float]) -> list[int]:
    """Split n into three counts by the fractions, largest remainder first (sum is exactly n)."""
    exact = [n * fractions[p] for p in PARTS]
    counts = [int(np.floor(x)) for x in exact]
    for i in sorted(range(3), key=lambda i: -(exact[i] - counts[i]))[: n - sum(counts)]:
        counts[i] += 1
    return counts


def _assign_in_order(ids: np.ndarray, fractions: dict[str, float], out: np.ndarray) -> None:
    a, b, _ = _cut_counts(len(ids), fractions)
    out[ids[:a]], out[ids[a:a + b]], out[ids[a + b:]] = 0, 1, 2


def random_assignment(n: int, eligible: np.ndarray, labels: pd.Series | None, fractions, rng) -> np.ndarray:
    out = np.full(n, -1)
    if labels is None:
        _assign_in_order(rng.permutation(eligible), fractions, out)
        return out
    for cls in sorted(labels[eligible].astype(str).unique()):
        members = eligible[labels[eligible].astype(str).to_numpy() == cls]
        _assign_in_order(rng.permutation(members), fractions, out)
    return out


def group_assignment(n: int, eligible: np.ndarray, groups: pd.Series, fractions, rng) -> np.ndarray:
    keys = groups.astype("string").fillna("<missing>").to_numpy()[eligible]
    sizes = pd.Series(keys).value_counts()
    if len(sizes) < 3:
        raise BadInput(f"a group split needs at least 3 groups; {groups.name} has {len(sizes)} among the usable rows",
                       code="too_few_groups")
    order = rng.permutation(sorted(sizes.index))
    wanted = np.array([len(eligible) * fractions[p] for p in PARTS])
    filled = np.zeros(3)
    chosen: dict[str, int] = {}
    for key in order:  # each group goes where the most rows are still wanted (relative)
        part = int(np.argmax((wanted - filled) / np.maximum(wanted, 1e-9)))
        chosen[key] = part
        filled[part] += sizes[key]
    out = np.full(n, -1)
    out[eligible] = [chosen[k] for k in keys]
    return out


def time_assignment(n: int, eligible: np.ndarray, times: pd.Series, fractions) -> tuple[np.ndarray, dict[str, Any]]:
    values = times.to_numpy()[eligible]
    order = np.argsort(values, kind="stable")
    ids, sorted_times = eligible[order], values[order]
    a, b, _ = _cut_counts(len(ids), fractions)
    out = np.full(n, -1)

    def boundary(position: int) -> int:
        """Move a cut forward past rows equal in time, so no time is on both sides."""
        if position <= 0 or position >= len(ids):
            return position
        return int(np.searchsorted(sorted_times, sorted_times[position - 1], side="right"))

    cut1 = boundary(a)
    cut2 = max(cut1, boundary(a + b))
    out[ids[:cut1]], out[ids[cut1:cut2]], out[ids[cut2:]] = 0, 1, 2
    if cut1 == 0 or cut1 == len(ids):
        raise BadInput(f"{times.name} has too few distinct times to put later rows after the training rows",
                       code="too_few_times")
    return out, {"cutoff": time_text(sorted_times[cut1 - 1]),
                 "validationStart": time_text(sorted_times[cut1]) if cut2 > cut1 else None,
                 "testStart": time_text(sorted_times[cut2]) if cut2 < len(ids) else None}


def time_text(t: Any) -> str | float:
    """A time as the contracts write it: a date as ISO text, a numeric time (a year, a period) as its number."""
    return float(t) if isinstance(t, (int, float, np.number)) else pd.Timestamp(t).isoformat()


def times_of(frame: pd.DataFrame, column: str) -> pd.Series:
    """The column as orderable times: dates parsed, numbers (a year, an epoch) as they are."""
    series = frame[column]
    if pd.api.types.is_datetime64_any_dtype(series):
        return series
    if pd.api.types.is_numeric_dtype(series):  # a year, an epoch, a period number: order by the number
        return series.astype(float)
    parsed = parse_datetimes(series)
    if series.notna().sum() and parsed.notna().sum() / series.notna().sum() < 0.95:
        raise BadInput(f"timeColumn {column} does not hold dates: fewer than 95% of its values parse as dates",
                       code="invalid_input")
    return parsed


def _holdout_frames(raw: Any) -> list[tuple[str, pd.DataFrame]]:
    if raw is None:
        return []
    if not isinstance(raw, list) or not all(isinstance(h, dict) for h in raw):
        raise BadInput("holdouts must be a list of {dataset, datasetFormat}", code="invalid_input")
    frames = []
    for h in raw:
        path = dataset_path(h)
        try:
            frame = read_table(path, normalize_table_format(h.get("datasetFormat")))
        except (UnicodeDecodeError, ValueError, OSError) as exc:
            raise BadInput(f"holdout {path.name} cannot be read: {exc}", code="unreadable") from None
        frame.columns = [str(name) for name in frame.columns]
        frames.append((sha256_file(path), frame))
    return frames


def _canonical_keys(series: pd.Series) -> np.ndarray:
    return np.array(row_hashes(series.to_frame(), [series.name]))


def holdout_exclusions(frame: pd.DataFrame, holdouts: list[tuple[str, pd.DataFrame]], strategy: str,
                       group_column: str | None, times: pd.Series | None) -> tuple[np.ndarray, list[dict]]:
    """Rows that must not be trained on because of a reserved holdout, and per holdout why."""
    out = np.zeros(len(frame), dtype=bool)
    evidence = []
    for sha, holdout in holdouts:
        common = [c for c in frame.columns if c in holdout.columns]
        same = np.isin(row_hashes(frame, common), list(set(row_hashes(holdout, common)))) if common else np.zeros(len(frame), bool)
        group = np.zeros(len(frame), dtype=bool)
        if strategy == "group" and group_column in holdout.columns:
            group = np.isin(_canonical_keys(frame[group_column]), list(set(_canonical_keys(holdout[group_column]))))
        later = np.zeros(len(frame), dtype=bool)
        if strategy == "time" and times is not None and times.name in holdout.columns:
            held_times = times_of(holdout, str(times.name)).dropna()
            if len(held_times):
                start = held_times.min()
                later = (times >= start).fillna(False).to_numpy(dtype=bool)
        evidence.append({"sha256": sha, "columns": len(common), "sameRows": int(same.sum()),
                         "sameGroup": int((group & ~same).sum()), "notBefore": int((later & ~same & ~group).sum())})
        out |= same | group | later
    return out, evidence


@requires("dataset", "datasetFormat", "snapshotSha256", "target", "task", "strategy")
def split_job(ctx, job_input: dict[str, Any]) -> dict[str, Any]:
    path = dataset_path(job_input)
    expected = str(job_input["snapshotSha256"]).removeprefix("sha256:").lower()
    actual = sha256_file(path)
    if actual != expected:
        raise BadInput(f"dataset {path.name} has SHA-256 {actual}, not the snapshotSha256 {expected} named in the input",
                       code="snapshot_mismatch")
    frame, _fmt = load_frame(job_input)
    target = require_column(frame, job_input["target"], "target")
    task, strategy = job_input["task"], job_input["strategy"]
    if task not in TASKS:
        raise BadInput(f"task must be one of {', '.join(TASKS)}, got {task!r}", code="invalid_input")
    if strategy not in ("random", "group", "time"):
        raise BadInput(f"strategy must be random, group or time, got {strategy!r}", code="invalid_input")
    seed = job_input.get("seed", 0)
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise BadInput(f"seed must be a non-negative integer, got {seed!r}", code="invalid_input")
    fractions = fractions_from_input(job_input.get("fractions"))
    emit(ctx, "phase", phase="preparing_data", step="split", strategy=strategy)

    duplicate = frame.duplicated(keep="first").to_numpy()
    missing_target = frame[target].isna().to_numpy()
    excluded = duplicate | missing_target
    group_column = time_column = None
    extra: dict[str, Any] = {"cutoff": None}
    missing_time = np.zeros(len(frame), dtype=bool)
    times = None
    if strategy == "time":
        time_column = require_column(frame, job_input.get("timeColumn"), "timeColumn")
        times = times_of(frame, time_column)
        missing_time = times.isna().to_numpy() & ~excluded
        excluded |= missing_time
    if strategy == "group":
        group_column = require_column(frame, job_input.get("groupColumn"), "groupColumn")
    held, holdout_evidence = holdout_exclusions(frame, _holdout_frames(job_input.get("holdouts")), strategy,
                                                group_column, times)
    held_out = held & ~excluded
    excluded |= held_out
    eligible = np.flatnonzero(~excluded)
    if len(eligible) < 3:
        raise BadInput(f"only {len(eligible)} usable rows after removing duplicates, missing targets"
                       f"{' and rows of reserved holdouts' if held_out.any() else ''}",
                       code="too_few_rows")
    rng = np.random.default_rng(seed)
    if strategy == "random":
        labels = frame[target] if task != "regression" else None
        assignment = random_assignment(len(frame), eligible, labels, fractions, rng)
    elif strategy == "group":
        assignment = group_assignment(len(frame), eligible, frame[group_column], fractions, rng)
    else:
        assignment, extra = time_assignment(len(frame), eligible, times, fractions)

    names = np.array([*PARTS, "excluded"])
    partition = pd.DataFrame({"row_id": np.arange(len(frame)), "partition": names[np.where(assignment < 0, 3, assignment)]})
    partition_path = ctx.output_dir / "partition.csv"
    partition.to_csv(partition_path, index=False, lineterminator="\n")
    counts = {name: int((partition["partition"] == name).sum()) for name in names}
    hashes = row_hashes(frame, frame.columns)
    trained_path = ctx.output_dir / "trained_rows.txt"
    write_rows_file(trained_path, frame.columns, (hashes[i] for i in np.flatnonzero(assignment >= 0)))
    split = {
        "version": 1, "snapshotSha256": actual, "strategy": strategy, "seed": seed, "target": target, "task": task,
        "groupColumn": group_column, "timeColumn": time_column, **extra, "fractions": fractions,
        "dedup": "exact_duplicates_first_kept", "partitionFile": "partition.csv",
        "partitionSha256": sha256_file(partition_path), "counts": counts, "rows": int(len(frame)),
        "excludedReasons": {"duplicate": int(duplicate.sum()), "missingTarget": int((missing_target & ~duplicate).sum()),
                            "missingTime": int(missing_time.sum()), "holdout": int(held_out.sum())},
        "holdouts": holdout_evidence,
        "trainedRowsFile": "trained_rows.txt", "trainedRowsSha256": sha256_file(trained_path),
    }
    write_json_atomic(ctx.output_dir / "split.json", split)
    emit(ctx, "log", message=f"split {len(frame):,} rows: " + ", ".join(f"{k} {v:,}" for k, v in counts.items()))
    if holdout_evidence:
        emit(ctx, "log", message=f"{int(held_out.sum()):,} rows kept out for {len(holdout_evidence)} reserved holdout(s)")
    return {"counts": counts}
