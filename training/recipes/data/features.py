"""data.features: one partition's features (features.parquet: row_id + feature columns,
never the target) and, apart, its labels (labels.parquet: row_id, label).

Input `split` is where the split lives, in any of these forms:
  - the output folder of a data.split job (holds split.json and partition.csv) — what the
    worker resolves a "sha256:..." reference of that job's output to;
  - the path of split.json itself (partition.csv is read beside it);
  - the path of a partition.csv (then no split.json checks are possible).
With split.json, the partition file's SHA-256 and the dataset's SHA-256 are checked against
it, so features never come from a different snapshot than the split was made on.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pandas as pd

from trainyard_recipe.errors import BadInput
from trainyard_recipe.events import emit
from trainyard_recipe.hashing import sha256_file
from trainyard_recipe.runner import requires

from recipes.data.inputs import dataset_path, load_frame, require_column

PARTITIONS = ("train", "validation", "test")


def locate_split(raw: Any) -> tuple[dict[str, Any] | None, Path]:
    """(split.json contents or None, partition.csv path) from the `split` input."""
    if not isinstance(raw, str) or not raw:
        raise BadInput("split must be the path of a data.split output folder, its split.json or a partition.csv",
                       code="invalid_input")
    path = Path(raw)
    if path.is_dir():
        path = path / "split.json"
    if not path.is_file():
        raise BadInput(f"split {raw} holds no split.json or partition file", code="unreadable")
    if path.name != "split.json":
        return None, path
    try:
        split = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise BadInput(f"split.json at {path} cannot be read: {exc}", code="unreadable") from None
    partition_path = path.parent / split.get("partitionFile", "partition.csv")
    if not partition_path.is_file():
        raise BadInput(f"split.json names {partition_path.name}, which is not beside it", code="unreadable")
    expected = split.get("partitionSha256")
    if expected and sha256_file(partition_path) != expected:
        raise BadInput(f"{partition_path.name} does not match the partitionSha256 recorded in split.json",
                       code="split_mismatch")
    return split, partition_path


def read_partition(path: Path, rows: int) -> pd.Series:
    try:
        table = pd.read_csv(path, dtype={"row_id": "int64", "partition": "string"})
    except (ValueError, OSError) as exc:
        raise BadInput(f"partition file {path.name} cannot be read: {exc}", code="unreadable") from None
    if list(table.columns) != ["row_id", "partition"] or len(table) != rows or \
            not (table["row_id"].to_numpy() == range(rows)).all():
        raise BadInput(f"partition file {path.name} must have columns row_id,partition and one row per data row "
                       f"({rows:,} here, it has {len(table):,})", code="split_mismatch")
    return table["partition"]


@requires("dataset", "datasetFormat", "split", "partition")
def features_job(ctx, job_input: dict[str, Any]) -> dict[str, Any]:
    partition_name = job_input["partition"]
    if partition_name not in PARTITIONS:
        raise BadInput(f"partition must be one of {', '.join(PARTITIONS)}, got {partition_name!r}",
                       code="invalid_input")
    split, partition_path = locate_split(job_input["split"])
    if split is not None and split.get("snapshotSha256") and sha256_file(dataset_path(job_input)) != split["snapshotSha256"]:
        raise BadInput("the dataset is not the snapshot this split was made on (SHA-256 differs from the split's "
                       "snapshotSha256)", code="split_mismatch")
    frame, _fmt = load_frame(job_input)
    target_name = job_input.get("target") or (split or {}).get("target")
    target = require_column(frame, target_name, "target")
    exclude = job_input.get("excludeColumns") or []
    if not isinstance(exclude, list) or not all(isinstance(c, str) for c in exclude):
        raise BadInput("excludeColumns must be a list of column names", code="invalid_input")
    for name in exclude:
        require_column(frame, name, "excludeColumns")
    if "row_id" in frame.columns:
        raise BadInput("the dataset has a column named row_id, which the feature files reserve", code="invalid_input")
    emit(ctx, "phase", phase="preparing_data", step="features", partition=partition_name)
    partition = read_partition(partition_path, len(frame))
    chosen = (partition == partition_name).to_numpy()
    feature_columns = [c for c in frame.columns if c != target and c not in exclude]
    if not feature_columns:  # the server refuses such a start; this names it for any other caller
        raise BadInput(f"no feature columns: {target} is the only column left after excludeColumns, and a model "
                       "needs at least one other column to learn from", code="no_feature_columns")
    rows = frame.loc[chosen]
    features = pd.concat([pd.Series(rows.index, name="row_id", dtype="int64", index=rows.index),
                          rows[feature_columns]], axis=1)
    labels = pd.DataFrame({"row_id": rows.index.astype("int64"), "label": rows[target].to_numpy()})
    features.to_parquet(ctx.output_dir / "features.parquet", index=False)
    labels.to_parquet(ctx.output_dir / "labels.parquet", index=False)
    emit(ctx, "log", message=f"{partition_name}: {len(features):,} rows, {len(feature_columns)} feature columns")
    return {"rows": int(len(features)), "featureColumns": len(feature_columns), "partition": partition_name}
