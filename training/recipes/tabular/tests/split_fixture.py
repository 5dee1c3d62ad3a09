"""Test helper: a split contract and per-partition features/labels in the contracts.md format,
made from a real CSV without the data recipe (so these tests do not depend on it).

Random split with a seed; exact duplicate rows after the first and rows with a missing
target are `excluded`, as data.split does.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pandas as pd

CSV_FORMAT = {"format": "csv", "delimiter": ",", "encoding": "utf-8", "header": True}


def sha256_file(path: Path) -> str:
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()


def make_split(dataset: Path, out_dir: Path, target: str, task: str, seed: int = 0,
               fractions=(0.6, 0.2, 0.2)) -> Path:
    """Write out_dir/split.json + partition.csv; return out_dir."""
    frame = pd.read_csv(dataset, low_memory=False)
    out_dir.mkdir(parents=True, exist_ok=True)
    excluded = frame.duplicated(keep="first") | frame[target].isna()
    usable = np.flatnonzero(~excluded.to_numpy())
    order = np.random.default_rng(seed).permutation(usable)
    n_train = int(round(fractions[0] * len(order)))
    n_val = int(round(fractions[1] * len(order)))
    partition = np.array(["excluded"] * len(frame), dtype=object)
    partition[order[:n_train]] = "train"
    partition[order[n_train:n_train + n_val]] = "validation"
    partition[order[n_train + n_val:]] = "test"
    pd.DataFrame({"row_id": np.arange(len(frame)), "partition": partition}).to_csv(out_dir / "partition.csv", index=False)
    counts = {name: int((partition == name).sum()) for name in ("train", "validation", "test", "excluded")}
    split = {
        "version": 1, "snapshotSha256": sha256_file(dataset), "strategy": "random", "seed": seed,
        "target": target, "task": task, "groupColumn": None, "timeColumn": None, "cutoff": None,
        "fractions": dict(zip(("train", "validation", "test"), fractions)),
        "dedup": "exact_duplicates_first_kept", "partitionFile": "partition.csv",
        "partitionSha256": sha256_file(out_dir / "partition.csv"), "counts": counts,
    }
    (out_dir / "split.json").write_text(json.dumps(split, indent=2), encoding="utf-8")
    return out_dir


def write_partition(dataset: Path, split_dir: Path, partition_name: str, target: str, out_dir: Path,
                    exclude=()) -> Path:
    """features.parquet (row_id + features, never the target) and labels.parquet for one partition."""
    frame = pd.read_csv(dataset, low_memory=False)
    partition = pd.read_csv(split_dir / "partition.csv")
    rows = frame.loc[partition["partition"].to_numpy() == partition_name]
    out_dir.mkdir(parents=True, exist_ok=True)
    features = rows.drop(columns=[target, *exclude])
    features.insert(0, "row_id", rows.index.to_numpy())
    features.to_parquet(out_dir / "features.parquet", index=False)
    pd.DataFrame({"row_id": rows.index.to_numpy(), "label": rows[target].to_numpy()}).to_parquet(
        out_dir / "labels.parquet", index=False)
    return out_dir


def diamonds_subsample(source: Path, out_path: Path, rows: int = 1500, seed: int = 0) -> Path:
    """A real-data regression snapshot small enough for a 30 s budget."""
    frame = pd.read_csv(source)
    frame.sample(n=rows, random_state=seed).to_csv(out_path, index=False)
    return out_path


def penguins_sex_as_numbers(source: Path, out_path: Path) -> Path:
    """Penguins with `sex` coded 1 (female) / 0 (male) / missing: pandas reads it as float64,
    so the binary classes arrive as 0.0/1.0, the case that class names must survive."""
    frame = pd.read_csv(source)
    frame["sex"] = frame["sex"].map({"female": 1, "male": 0})
    frame.to_csv(out_path, index=False)
    return out_path
