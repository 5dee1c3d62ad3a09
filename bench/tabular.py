#!/usr/bin/env python3
"""Tabular chain benchmark: profile -> checks -> split -> features -> train(quick) -> predict
-> baseline -> score -> compare, per dataset, through the recipe environments directly (not
the worker), one real subprocess per job.

    python3 bench/tabular.py [--budget 60] [--cpus 2] FILE:TARGET [FILE:TARGET ...]
    python3 bench/tabular.py tests/fixtures/tabular/penguins.csv:species \
        /work/shared/data/tabular/titanic.csv:Survived tests/fixtures/tabular/diamonds.csv:price

Prints one row per dataset: rows, task, metric, seconds to a usable model (profile start to
a trained model on disk), the training budget against its wall time, and the candidate's
and the baseline's test scores from their receipts. Task, metric, positive class and
excluded columns are what data.checks recommends. Standard library only; scratch files go
to a temporary folder that is removed at the end (--keep keeps it).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
TRAINING = REPO / "training"
ENVS = Path(os.environ.get("TRAINYARD_TEST_ENVS_DIR") or REPO / ".tmp" / "envs")
RECIPES = {"data": TRAINING / "recipes" / "data", "tabular": TRAINING / "recipes" / "tabular",
           "evaluation": TRAINING / "evaluation", "export": TRAINING / "recipes" / "export"}
_pythons: dict = {}


def python_of(recipe: str) -> str:
    if recipe not in _pythons:
        out = subprocess.run([sys.executable, str(TRAINING / "tools" / "build_env.py"), "--recipe-dir",
                              str(RECIPES[recipe]), "--envs-dir", str(ENVS)], capture_output=True, text=True,
                             check=True).stdout
        _pythons[recipe] = str(Path(json.loads(out.strip().splitlines()[-1])["path"]) / "venv" / "bin" / "python")
    return _pythons[recipe]


def run_job(recipe: str, job: str, payload: dict, scratch: Path, cpus: int) -> Path:
    """Run one job like the worker would; return its output folder (raise on failure)."""
    module = json.loads((RECIPES[recipe] / "recipe.json").read_text())["module"]
    job_dir = Path(tempfile.mkdtemp(prefix=f"{recipe}-{job}-", dir=scratch))
    for sub in ("work", "output", "checkpoint"):
        (job_dir / sub).mkdir()
    (job_dir / "input.json").write_text(json.dumps(payload))
    env = {"PATH": os.environ["PATH"], "HOME": os.environ.get("HOME", "/tmp"), "PYTHONPATH": str(TRAINING),
           "PYTHONUNBUFFERED": "1", "HF_HUB_OFFLINE": "1", "TRAINYARD_JOB_ID": job_dir.name,
           "TRAINYARD_WORK_DIR": str(job_dir / "work"), "TRAINYARD_OUTPUT_DIR": str(job_dir / "output"),
           "TRAINYARD_CHECKPOINT_DIR": str(job_dir / "checkpoint"),
           "TRAINYARD_EVENTS_FILE": str(job_dir / "events.jsonl"), "TRAINYARD_REPORT_FILE": str(job_dir / "report.json"),
           "TRAINYARD_CPUS": str(cpus), "OMP_NUM_THREADS": str(cpus), "OPENBLAS_NUM_THREADS": str(cpus),
           "MKL_NUM_THREADS": str(cpus)}
    proc = subprocess.run([python_of(recipe), "-m", module, job, "--input", str(job_dir / "input.json")],
                          cwd=job_dir / "work", env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        report = (job_dir / "report.json").read_text() if (job_dir / "report.json").exists() else "{}"
        raise RuntimeError(f"{recipe}.{job} exited {proc.returncode}: {report}\n{proc.stderr[-2000:]}")
    return job_dir / "output"


def sha256_file(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while chunk := handle.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def chain(dataset: Path, target: str, budget: float, cpus: int, scratch: Path) -> dict:
    started = time.monotonic()
    profile = json.loads((run_job("data", "profile", {"dataset": str(dataset), "fileName": dataset.name}, scratch,
                                  cpus) / "profile.json").read_text())
    fmt = profile["tableFormat"]
    checks = json.loads((run_job("data", "checks", {"dataset": str(dataset), "datasetFormat": fmt, "target": target},
                                 scratch, cpus) / "checks.json").read_text())
    exclude = sorted({c for issue in checks.get("issues", [])
                      if (issue.get("recommendedAction") or {}).get("kind") == "exclude_columns"
                      for c in issue.get("columns", [])} - {target})
    task, metric, positive = checks["task"], checks["metric"], checks.get("positiveClass")
    snapshot = sha256_file(dataset)
    split = run_job("data", "split", {"dataset": str(dataset), "datasetFormat": fmt, "snapshotSha256": snapshot,
                                      "target": target, "task": task, "strategy": "random", "seed": 0}, scratch, cpus)
    parts = {p: run_job("data", "features", {"dataset": str(dataset), "datasetFormat": fmt, "split": str(split),
                                             "partition": p, "target": target, "excludeColumns": exclude},
                        scratch, cpus) for p in ("train", "test")}
    train_started = time.monotonic()
    model = run_job("tabular", "train", {"dataset": str(dataset), "datasetFormat": fmt, "split": str(split),
                                         "target": target, "task": task, "metric": metric, "positiveClass": positive,
                                         "excludeColumns": exclude, "preset": "quick", "timeLimitSeconds": budget,
                                         "seed": 0}, scratch, cpus)
    usable = time.monotonic() - started
    train_wall = time.monotonic() - train_started
    training = json.loads((model / "training.json").read_text())
    predictions = run_job("tabular", "predict", {"model": str(model), "features": str(parts["test"])}, scratch, cpus)
    baseline = run_job("evaluation", "baseline", {"labels": str(parts["train"]), "features": str(parts["test"]),
                                                  "task": task}, scratch, cpus)
    contract = {"snapshotSha256": snapshot, "splitSha256": sha256_file(split / "split.json")}
    score = {"labels": str(parts["test"]), "task": task, "metric": metric,
             "positiveClass": training["positiveClass"], "classes": training["classLabels"]}
    cand = json.loads((run_job("evaluation", "score", {**score, "predictions": str(predictions), "contract": {
        **contract, "exportSha256": sha256_file(model / "manifest.json")}}, scratch, cpus) / "receipt.json").read_text())
    base = json.loads((run_job("evaluation", "score", {**score, "predictions": str(baseline), "contract": {
        **contract, "exportSha256": None}}, scratch, cpus) / "receipt.json").read_text())
    sys.path.insert(0, str(TRAINING))
    from evaluation.compare import compare_receipts

    decision = compare_receipts(cand, base)
    return {"dataset": dataset.name, "rows": profile["rows"], "task": task, "metric": metric,
            "excluded": ",".join(exclude) or "-", "usable_s": usable, "budget_s": budget, "train_wall_s": train_wall,
            "fit_s": training["fitSeconds"], "models": training["modelsFit"], "best": training["bestModel"],
            "candidate": cand["primaryValue"], "baseline": base["primaryValue"],
            "better": decision["better"] if decision["comparable"] else "n/c", "chain_s": time.monotonic() - started}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pairs", nargs="+", help="FILE:TARGET")
    parser.add_argument("--budget", type=float, default=60, help="train timeLimitSeconds (default 60)")
    parser.add_argument("--cpus", type=int, default=2)
    parser.add_argument("--keep", action="store_true", help="keep the scratch folder")
    args = parser.parse_args(argv)
    scratch = Path(tempfile.mkdtemp(prefix="bench-tabular-"))
    header = ("dataset", "rows", "task", "metric", "excluded", "usable_s", "budget_s", "train_wall_s", "fit_s",
              "models", "best", "candidate", "baseline", "better", "chain_s")
    print(f"# load average before: {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs (timings scale with it)")
    print("\t".join(header), flush=True)
    failures = 0
    try:
        for pair in args.pairs:
            file, _, target = pair.rpartition(":")
            try:
                row = chain(Path(file).resolve(), target, args.budget, args.cpus, scratch)
            except Exception as error:  # report and go on with the next dataset
                failures += 1
                print(f"{Path(file).name}\tFAILED: {error}", flush=True)
                continue
            print("\t".join(f"{row[k]:.4g}" if isinstance(row[k], float) else str(row[k]) for k in header), flush=True)
    finally:
        print(f"# load average after: {os.getloadavg()[0]:.2f}")
        if args.keep:
            print(f"scratch kept in {scratch}", file=sys.stderr)
        else:
            shutil.rmtree(scratch, ignore_errors=True)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
