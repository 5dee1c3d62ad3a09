#!/usr/bin/env python3
"""Export packaging benchmark: train one real AutoGluon model per dataset (quick preset),
score it, then time the export recipe's `package` job on that same model — the current
code (twice: the archive must come out byte-identical) and, with --against REV, the code
of an older commit (once).

    python3 bench/package.py [--budget 60] [--against REV] FILE:TARGET [FILE:TARGET ...]
    python3 bench/package.py --against 55ba463 --hyperparameters '{"RF": {}}' tests/fixtures/tabular/diamonds.csv:price
    python3 bench/package.py --against 55ba463 --hyperparameters '{"RF": {}}' --package-cpus 1,2 --load 2 \
        tests/fixtures/tabular/diamonds.csv:price

--package-cpus times the current code once per CPU count (the job's compression threads follow
its reservation); --load N keeps N busy processes running while the package jobs are timed
(not while training), the load another experiment's training puts on the machine.

Prints, per dataset: the predictor folder's size, then per code version the package job's
wall time (process start to exit), the archive's size and whether two runs of it gave the
same SHA-256. Standard library only; uses the recipe environments in .tmp/envs like
bench/tabular.py. Timings depend on the machine's load, which it prints.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
import tabular  # noqa: E402  (bench/tabular.py: recipe environments and one job like the worker runs it)

REPO = tabular.REPO


def folder_bytes(root: Path) -> int:
    return sum(p.stat().st_size for p in root.rglob("*") if p.is_file())


def trained_and_scored(dataset: Path, target: str, budget: float, cpus: int, scratch: Path,
                       hyperparameters: dict | None) -> dict:
    """The package job's input for a freshly trained, scored model of this dataset."""
    run = lambda recipe, job, payload: tabular.run_job(recipe, job, payload, scratch, cpus)  # noqa: E731
    profile = json.loads((run("data", "profile", {"dataset": str(dataset), "fileName": dataset.name})
                          / "profile.json").read_text())
    fmt = profile["tableFormat"]
    checks = json.loads((run("data", "checks", {"dataset": str(dataset), "datasetFormat": fmt, "target": target})
                         / "checks.json").read_text())
    task, metric = checks["task"], checks["metric"]
    snapshot = tabular.sha256_file(dataset)
    split = run("data", "split", {"dataset": str(dataset), "datasetFormat": fmt, "snapshotSha256": snapshot,
                                  "target": target, "task": task, "strategy": "random", "seed": 0})
    parts = {p: run("data", "features", {"dataset": str(dataset), "datasetFormat": fmt, "split": str(split),
                                         "partition": p, "target": target}) for p in ("train", "test")}
    model = run("tabular", "train", {"dataset": str(dataset), "datasetFormat": fmt, "split": str(split),
                                     "target": target, "task": task, "metric": metric,
                                     "positiveClass": checks.get("positiveClass"), "preset": "quick",
                                     "timeLimitSeconds": budget, "seed": 0,
                                     **({"hyperparameters": hyperparameters} if hyperparameters else {})})
    training = json.loads((model / "training.json").read_text())
    predictions = run("tabular", "predict", {"model": str(model), "features": str(parts["test"])})
    baseline = run("evaluation", "baseline", {"labels": str(parts["train"]), "features": str(parts["test"]),
                                              "task": task})
    contract = {"snapshotSha256": snapshot, "splitSha256": tabular.sha256_file(split / "split.json")}
    score = {"labels": str(parts["test"]), "task": task, "metric": metric,
             "positiveClass": training["positiveClass"], "classes": training["classLabels"]}
    cand = run("evaluation", "score", {**score, "predictions": str(predictions), "contract": {
        **contract, "exportSha256": tabular.sha256_file(model / "manifest.json")}})
    base = run("evaluation", "score", {**score, "predictions": str(baseline), "contract": {
        **contract, "exportSha256": None}})
    return {"model": str(model), "receipt": str(cand), "baselineReceipt": str(base),
            "card": {"project": "bench", "experiment": f"{dataset.stem} quick", "datasetName": dataset.name}}


def training_tree_at(rev: str, scratch: Path) -> Path:
    """training/ as it was at REV, unpacked into scratch (the job runs that code)."""
    dest = scratch / f"training-{rev}"
    dest.mkdir()
    archive = subprocess.run(["git", "-C", str(REPO), "archive", rev, "training"], capture_output=True, check=True)
    subprocess.run(["tar", "x", "-C", str(dest)], input=archive.stdout, check=True)
    return dest / "training"


def time_package(payload: dict, training_dir: Path, scratch: Path, cpus: int, load: int) -> tuple[float, Path]:
    original = tabular.TRAINING
    tabular.TRAINING = training_dir  # run_job puts TRAINING on PYTHONPATH
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(load)]
    try:
        started = time.monotonic()
        out = tabular.run_job("export", "package", payload, scratch, cpus)
        return time.monotonic() - started, out
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
        tabular.TRAINING = original


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pairs", nargs="+", help="FILE:TARGET")
    parser.add_argument("--budget", type=float, default=60, help="train timeLimitSeconds (default 60)")
    parser.add_argument("--cpus", type=int, default=2, help="CPUs of the training and scoring jobs")
    parser.add_argument("--package-cpus", default="1",
                        help="CPUs the package job reserves (its compression threads), comma-separated to time "
                             "several: '1,2' (default 1; the older code is timed with the first)")
    parser.add_argument("--against", help="also time the package job of this git revision")
    parser.add_argument("--hyperparameters", type=json.loads,
                        help='model families to fit, as JSON (e.g. \'{"RF": {}}\': a random forest, the large'
                             " predictor a busy machine may not get to within the budget)")
    parser.add_argument("--load", type=int, default=0, help="busy processes running while the package jobs are timed")
    args = parser.parse_args(argv)
    scratch = Path(tempfile.mkdtemp(prefix="bench-package-"))
    print(f"# load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs")
    package_cpus = [int(n) for n in args.package_cpus.split(",")]
    print("\t".join(("dataset", "code", "package_cpus", "predictor_MB", "package_s", "archive_MB", "deterministic",
                     "load_1min")), flush=True)
    try:
        versions = [("current", tabular.TRAINING)]
        if args.against:
            versions.append((args.against, training_tree_at(args.against, scratch)))
        for pair in args.pairs:
            file, _, target = pair.rpartition(":")
            dataset = Path(file).resolve()
            payload = trained_and_scored(dataset, target, args.budget, args.cpus, scratch, args.hyperparameters)
            predictor_mb = folder_bytes(Path(payload["model"]) / "predictor") / 1e6
            runs = [("current", tabular.TRAINING, n) for n in package_cpus]
            runs += [(name, tree, package_cpus[0]) for name, tree in versions[1:]]
            for name, training_dir, cpus in runs:
                seconds, out = time_package(payload, training_dir, scratch, cpus, args.load)
                first = json.loads((out / "export.json").read_text())
                same = "-"
                if name == "current":  # the older code's determinism is not what is measured
                    _, again = time_package(payload, training_dir, scratch, cpus, args.load)
                    same = str(json.loads((again / "export.json").read_text())["sha256"] == first["sha256"])
                print("\t".join((dataset.stem, name, str(cpus), f"{predictor_mb:.1f}", f"{seconds:.2f}",
                                 f"{first['bytes'] / 1e6:.2f}", same, f"{os.getloadavg()[0]:.1f}")), flush=True)
    finally:
        print(f"# load average after: {os.getloadavg()[0]:.2f}")
        shutil.rmtree(scratch, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
