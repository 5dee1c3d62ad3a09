"""Rows for training: the train and validation partitions of a split contract.

Test rows are dropped right after the snapshot is parsed and never reach a model, a
statistic or an output. Row id = 0-based data row index (docs/dev/contracts.md).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass

import pandas as pd
from trainyard_recipe import BadInput, class_key, read_table, sha256_file

from recipes.tabular.options import TrainOptions


@dataclass
class Prepared:
    train: pd.DataFrame  # feature columns + target, indexed by row id
    validation: pd.DataFrame
    features: list
    split: dict
    snapshot_sha256: str
    split_sha256: str


def load_split(split_dir: str) -> tuple[dict, str, pd.DataFrame]:
    split_path = os.path.join(split_dir, "split.json") if os.path.isdir(split_dir) else split_dir
    if not os.path.isfile(split_path):
        raise BadInput(f"no split.json at {split_path}", code="missing_input")
    with open(split_path, encoding="utf-8") as handle:
        split = json.load(handle)
    partition_path = os.path.join(os.path.dirname(split_path), split.get("partitionFile", "partition.csv"))
    if not os.path.isfile(partition_path):
        raise BadInput(f"split contract names partition file {partition_path}, which does not exist",
                       code="missing_input")
    expected = split.get("partitionSha256")
    if expected and sha256_file(partition_path) != expected:
        raise BadInput(f"partition file {partition_path} does not match partitionSha256 in split.json",
                       code="split_mismatch")
    partition = pd.read_csv(partition_path, dtype={"row_id": "int64", "partition": "string"})
    return split, sha256_file(split_path), partition


def prepare(options: TrainOptions) -> Prepared:
    split, split_sha, partition = load_split(options.split_dir)
    snapshot_sha = sha256_file(options.dataset)
    if split.get("snapshotSha256") and split["snapshotSha256"] != snapshot_sha:
        raise BadInput("the split contract was made for another dataset snapshot "
                       f"({split['snapshotSha256'][:12]}…, dataset is {snapshot_sha[:12]}…)", code="split_mismatch")
    if split.get("target") and split["target"] != options.target:
        raise BadInput(f"the split contract is for target {split['target']!r}, not {options.target!r}",
                       code="split_mismatch")
    table = read_table(options.dataset, options.dataset_format)
    if len(partition) != len(table):
        raise BadInput(f"partition file has {len(partition)} rows, the dataset {len(table)}", code="split_mismatch")
    if options.target not in table.columns:
        raise BadInput(f"target column {options.target!r} is not in the dataset", code="unknown_column")
    missing = [c for c in options.exclude_columns if c not in table.columns]
    if missing:
        raise BadInput(f"excludeColumns name columns not in the dataset: {missing}", code="unknown_column")
    labels = partition.set_index("row_id")["partition"].reindex(table.index)
    keep = labels.isin(["train", "validation"]).to_numpy()
    table = table.loc[keep]  # the test partition stops here
    labels = labels[keep]
    features = [c for c in table.columns if c != options.target and c not in options.exclude_columns]
    if not features:
        raise BadInput("no feature columns are left after removing the target and excludeColumns",
                       code="invalid_input")
    table = table[features + [options.target]]
    train = table[(labels == "train").to_numpy()]
    validation = table[(labels == "validation").to_numpy()]
    if train[options.target].isna().any() or validation[options.target].isna().any():
        raise BadInput("train/validation rows have a missing target; the split should mark them excluded",
                       code="split_mismatch")
    if len(train) < 5 or len(validation) < 1:
        raise BadInput(f"too few rows to train: {len(train)} train, {len(validation)} validation",
                       code="too_few_rows")
    check_task(options, train)
    return Prepared(train, validation, features, split, snapshot_sha, split_sha)


def check_task(options: TrainOptions, train: pd.DataFrame) -> None:
    target = train[options.target]
    if options.task == "regression":
        if not pd.api.types.is_numeric_dtype(target):
            raise BadInput(f"regression target {options.target!r} is not numeric", code="invalid_target")
        return
    classes = target.unique()
    if options.task == "binary" and len(classes) != 2:
        raise BadInput(f"binary target {options.target!r} has {len(classes)} classes in train", code="invalid_target")
    if options.task == "multiclass" and len(classes) < 3:
        raise BadInput(f"multiclass target {options.target!r} has {len(classes)} classes in train", code="invalid_target")
    if options.positive_class is not None:
        names = {class_key(c) for c in classes}
        if class_key(options.positive_class) not in names:
            raise BadInput(f"positiveClass {options.positive_class!r} is not a class of {options.target!r}: "
                           f"{sorted(names)}", code="invalid_input")
