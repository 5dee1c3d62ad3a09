"""Shared pytest fixtures for every recipe's tests.

`run_job(recipe, job, input_dict, tmp_path)` runs a recipe job as a real subprocess with the
recipe's own environment (<envs>/<id>/venv/bin/python -m <module> <job> --input input.json),
the contract's TRAINYARD_* variables and PYTHONPATH=training, and returns a JobResult
(exit code, output dir, report, events, manifest, stdout/stderr). `start_job(...)` does the
same without waiting (for SIGTERM tests). Environments live in $TRAINYARD_TEST_ENVS_DIR
(default <repo>/.tmp/envs); run_pytests.py builds them first, and a missing one is built here
(build_env.py holds a lock, so concurrent builds build once).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from dataclasses import dataclass, field
from itertools import count
from pathlib import Path
from typing import Any

import pytest

TRAINING = Path(__file__).resolve().parent
REPO = TRAINING.parent
FIXTURES = REPO / "tests" / "fixtures" / "tabular"
_job_numbers = count(1)


def envs_dir_for_tests() -> Path:
    return Path(os.environ.get("TRAINYARD_TEST_ENVS_DIR") or REPO / ".tmp" / "envs").absolute()


def recipe_dir(recipe: str) -> Path:
    path = TRAINING / recipe if recipe in ("evaluation", "evaluation_lm") else TRAINING / "recipes" / recipe
    if not (path / "recipe.json").is_file():
        raise FileNotFoundError(f"recipe {recipe!r} has no recipe.json at {path}")
    return path


_pythons: dict[str, Path] = {}


def recipe_python(recipe: str) -> Path:
    """The interpreter of the recipe's environment, building the environment if needed."""
    if recipe not in _pythons:
        proc = subprocess.run(
            [sys.executable, str(TRAINING / "tools" / "build_env.py"), "--recipe-dir", str(recipe_dir(recipe)),
             "--envs-dir", str(envs_dir_for_tests())], capture_output=True, text=True)
        if proc.returncode != 0:
            raise RuntimeError(f"environment of recipe {recipe!r} failed to build:\n{proc.stdout[-3000:]}\n"
                               f"{proc.stderr[-3000:]}")
        result = json.loads(proc.stdout.strip().splitlines()[-1])
        _pythons[recipe] = Path(result["path"]) / "venv" / "bin" / "python"
    return _pythons[recipe]


def read_events(path: Path) -> list[dict]:
    if not path.is_file():
        return []
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def _read_json(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else None


@dataclass
class JobResult:
    returncode: int
    job_dir: Path
    output_dir: Path
    report: dict | None
    events: list[dict]
    manifest: dict | None
    stdout: str
    stderr: str

    def output(self, rel: str) -> Path:
        return self.output_dir / rel

    def output_json(self, rel: str) -> Any:
        return json.loads((self.output_dir / rel).read_text(encoding="utf-8"))

    def describe(self) -> str:
        """For assertion messages: what the job said when it did not do what we expected."""
        return (f"exit {self.returncode}; report={json.dumps(self.report)[:2000]}\n"
                f"stderr tail:\n{self.stderr[-3000:]}")


@dataclass
class RunningJob:
    proc: subprocess.Popen
    job_dir: Path
    paths: dict[str, Path] = field(default_factory=dict)

    def events(self) -> list[dict]:
        return read_events(self.paths["events"])

    def terminate(self) -> None:
        """SIGTERM to the job's process group, as the supervisor does."""
        os.killpg(self.proc.pid, signal.SIGTERM)

    def wait(self, timeout: float = 600) -> JobResult:
        try:
            stdout, stderr = self.proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            stdout, stderr = self.proc.communicate()
            raise AssertionError(f"job in {self.job_dir} ran past {timeout} s; stderr:\n{stderr[-3000:]}")
        return JobResult(returncode=self.proc.returncode, job_dir=self.job_dir, output_dir=self.paths["output"],
                         report=_read_json(self.paths["report"]), events=read_events(self.paths["events"]),
                         manifest=_read_json(self.paths["output"] / "manifest.json"), stdout=stdout, stderr=stderr)


def start_recipe_job(recipe: str, job: str, input_dict: dict, tmp_path: Path, *, cpus: int = 1,
                     extra_env: dict[str, str] | None = None) -> RunningJob:
    python = recipe_python(recipe)
    module = json.loads((recipe_dir(recipe) / "recipe.json").read_text())["module"]
    job_dir = Path(tmp_path) / f"job-{recipe}-{job}-{next(_job_numbers)}"
    paths = {"work": job_dir / "work", "output": job_dir / "output", "checkpoint": job_dir / "checkpoint",
             "events": job_dir / "events.jsonl", "report": job_dir / "report.json", "input": job_dir / "input.json"}
    for key in ("work", "output", "checkpoint"):
        paths[key].mkdir(parents=True)
    paths["input"].write_text(json.dumps(input_dict), encoding="utf-8")
    env = {key: os.environ[key] for key in ("PATH", "HOME", "LANG", "TMPDIR") if key in os.environ}
    env.update({
        "TRAINYARD_JOB_ID": job_dir.name, "TRAINYARD_WORK_DIR": str(paths["work"]),
        "TRAINYARD_OUTPUT_DIR": str(paths["output"]), "TRAINYARD_CHECKPOINT_DIR": str(paths["checkpoint"]),
        "TRAINYARD_EVENTS_FILE": str(paths["events"]), "TRAINYARD_REPORT_FILE": str(paths["report"]),
        "TRAINYARD_CPUS": str(cpus), "OMP_NUM_THREADS": str(cpus), "OPENBLAS_NUM_THREADS": str(cpus),
        "MKL_NUM_THREADS": str(cpus), "PYTHONPATH": str(TRAINING), "PYTHONUNBUFFERED": "1",
        "HF_HUB_OFFLINE": "1",
    })
    env.update(extra_env or {})
    proc = subprocess.Popen([str(python), "-m", module, job, "--input", str(paths["input"])], cwd=paths["work"],
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            start_new_session=True)  # own process group, like the supervisor's
    return RunningJob(proc=proc, job_dir=job_dir, paths=paths)


@pytest.fixture
def run_job():
    """run_job(recipe, job, input_dict, tmp_path, *, cpus=1, extra_env=None, timeout=600) -> JobResult"""

    def run(recipe: str, job: str, input_dict: dict, tmp_path: Path, *, cpus: int = 1,
            extra_env: dict[str, str] | None = None, timeout: float = 600) -> JobResult:
        return start_recipe_job(recipe, job, input_dict, tmp_path, cpus=cpus, extra_env=extra_env).wait(timeout)

    return run


@pytest.fixture
def start_job():
    """start_job(recipe, job, input_dict, tmp_path, ...) -> RunningJob (.terminate(), .wait())"""
    started: list[RunningJob] = []

    def start(*args: Any, **kwargs: Any) -> RunningJob:
        running = start_recipe_job(*args, **kwargs)
        started.append(running)
        return running

    yield start
    for running in started:  # never leave a job process behind a failed test
        if running.proc.poll() is None:
            os.killpg(running.proc.pid, signal.SIGKILL)
            running.proc.wait()


@pytest.fixture(scope="session")
def tabular_fixtures() -> Path:
    """tests/fixtures/tabular: penguins.csv, seattle_weather.csv, diamonds.csv (see its README)."""
    return FIXTURES


def make_job_context(root: Path, cpus: int = 1):
    """A JobContext whose folders live under `root`, for calling job functions in-process."""
    from trainyard_recipe.context import JobContext

    root = Path(root) / f"ctx-{next(_job_numbers)}"
    ctx = JobContext(job_id=root.name, work_dir=root / "work", output_dir=root / "output",
                     checkpoint_dir=root / "checkpoint", events_file=root / "events.jsonl",
                     report_file=root / "report.json", cpus=cpus)
    ctx.ensure_dirs()
    return ctx


@pytest.fixture
def job_context(tmp_path):
    """job_context() -> a fresh JobContext under tmp_path (call it once per in-process job)."""
    return lambda: make_job_context(tmp_path)
