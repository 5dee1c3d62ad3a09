"""run_recipe in a real subprocess: exit codes, report, manifest, SIGTERM."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

TRAINING = Path(__file__).resolve().parents[2]

RECIPE = '''
import sys, time
from trainyard_recipe import BadInput, emit, requires, run_recipe

@requires("name")
def greet(ctx, job_input):
    (ctx.output_dir / "nested").mkdir()
    (ctx.output_dir / "nested" / "hello.txt").write_text("hello " + job_input["name"])
    emit(ctx, "progress", done=1, total=1)
    return {"greeted": job_input["name"]}

def refuse(ctx, job_input):
    raise BadInput("the table has no rows", code="header_only")

def crash(ctx, job_input):
    raise ZeroDivisionError("division by zero in step 3")

def linger(ctx, job_input):
    (ctx.output_dir / "partial.bin").write_bytes(b"half")
    emit(ctx, "log", message="ready")
    while True:
        time.sleep(0.05)

class _Booster:
    # a native model's handle freed in __del__, as LightGBM's Booster does: a signal that
    # arrives while it runs raises there, and Python prints the exception and drops it
    def __init__(self, ctx):
        self.ctx = ctx

    def __del__(self):
        emit(self.ctx, "log", message="ready")
        time.sleep(30)

def swallow(ctx, job_input):
    (ctx.output_dir / "model.bin").write_bytes(b"whole")
    _Booster(ctx)
    return {"finished": True}

raise SystemExit(run_recipe({"greet": greet, "refuse": refuse, "crash": crash, "linger": linger,
                             "swallow": swallow}))
'''


class Job:
    def __init__(self, root: Path, job: str, job_input: dict):
        self.root = root
        (root / "out").mkdir(parents=True)
        (root / "input.json").write_text(json.dumps(job_input))
        script = root / "recipe_under_test.py"
        script.write_text(RECIPE)
        env = {"PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(TRAINING), "TRAINYARD_JOB_ID": "t1",
               "TRAINYARD_WORK_DIR": str(root / "work"), "TRAINYARD_OUTPUT_DIR": str(root / "out"),
               "TRAINYARD_CHECKPOINT_DIR": str(root / "ckpt"), "TRAINYARD_EVENTS_FILE": str(root / "events.jsonl"),
               "TRAINYARD_REPORT_FILE": str(root / "report.json"), "TRAINYARD_CPUS": "1"}
        self.proc = subprocess.Popen([sys.executable, str(script), job, "--input", str(root / "input.json")],
                                     env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)

    def wait(self):
        _, self.stderr = self.proc.communicate(timeout=60)
        return self.proc.returncode

    @property
    def report(self):
        return json.loads((self.root / "report.json").read_text())

    def events(self):
        path = self.root / "events.jsonl"
        return [json.loads(line) for line in path.read_text().splitlines()] if path.exists() else []


def test_completed_job_exits_0_with_manifest_and_metrics(tmp_path):
    job = Job(tmp_path, "greet", {"name": "Ada"})
    assert job.wait() == 0, job.stderr
    assert job.report["status"] == "completed" and job.report["metrics"] == {"greeted": "Ada"}
    manifest = json.loads((tmp_path / "out" / "manifest.json").read_text())
    assert [f["path"] for f in manifest["files"]] == ["nested/hello.txt"]
    assert any(e["type"] == "progress" for e in job.events())


def test_bad_input_exits_2_and_reports_the_code(tmp_path):
    job = Job(tmp_path, "refuse", {})
    assert job.wait() == 2
    assert job.report["status"] == "failed"
    assert job.report["error"] == {"type": "BadInput", "code": "header_only", "message": "the table has no rows"}
    assert not (tmp_path / "out" / "manifest.json").exists()


def test_missing_required_input_is_bad_input(tmp_path):
    job = Job(tmp_path, "greet", {"other": 1})
    assert job.wait() == 2
    assert job.report["error"]["code"] == "missing_field" and "name" in job.report["error"]["message"]


def test_unknown_job_is_a_usage_error(tmp_path):
    job = Job(tmp_path, "nope", {})
    assert job.wait() == 2
    assert "greet" in job.report["error"]["message"]


def test_unexpected_exception_exits_1_with_type_and_message(tmp_path):
    job = Job(tmp_path, "crash", {})
    assert job.wait() == 1
    assert job.report["error"] == {"type": "ZeroDivisionError", "message": "division by zero in step 3"}
    assert "Traceback" in job.stderr


def test_sigterm_exits_130_and_removes_partial_outputs(tmp_path):
    job = Job(tmp_path, "linger", {})
    deadline = time.monotonic() + 30
    while not any(e.get("message") == "ready" for e in job.events()):  # wait until the job has written output
        assert job.proc.poll() is None and time.monotonic() < deadline, "job never became ready"
        time.sleep(0.02)
    assert (tmp_path / "out" / "partial.bin").exists()
    job.proc.send_signal(signal.SIGTERM)
    assert job.wait() == 130
    assert list((tmp_path / "out").iterdir()) == []
    assert job.report["status"] == "failed" and job.report["error"]["code"] == "stopped"


def test_a_stop_a_destructor_swallowed_still_ends_the_job_as_stopped(tmp_path):
    job = Job(tmp_path, "swallow", {})
    deadline = time.monotonic() + 30
    while not any(e.get("message") == "ready" for e in job.events()):
        assert job.proc.poll() is None and time.monotonic() < deadline, "job never became ready"
        time.sleep(0.02)
    job.proc.send_signal(signal.SIGTERM)
    assert job.wait() == 130, job.stderr
    assert list((tmp_path / "out").iterdir()) == []
    assert job.report["error"] == {"type": "Stopped", "code": "stopped", "message": "stopped by SIGTERM"}


def test_missing_environment_exits_1_naming_the_variables(tmp_path):
    proc = subprocess.run([sys.executable, "-c", "from trainyard_recipe import run_recipe; "
                           "raise SystemExit(run_recipe({'x': lambda c, i: None}, ['x', '--input', 'i.json']))"],
                          env={"PATH": os.environ["PATH"], "PYTHONPATH": str(TRAINING)}, capture_output=True, text=True)
    assert proc.returncode == 1 and "TRAINYARD_OUTPUT_DIR" in proc.stderr
