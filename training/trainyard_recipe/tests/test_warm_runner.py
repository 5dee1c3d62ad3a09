"""The warm runner's protocol in real processes (docs/dev/warm-start.md): the handshake, the
job's output on the connection, the exit status its leader records, nothing run without
"go", and a runner that refuses to be warm when its preload starts a thread."""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

TRAINING = Path(__file__).resolve().parents[2]

JOB = '''
import os, sys, time
mode = sys.argv[1]
print("argv", sys.argv[1:], "cwd", os.getcwd(), "marker", os.environ.get("MARKER"), flush=True)
print("to stderr", file=sys.stderr, flush=True)
open("ran", "w").write(mode)
if mode == "exit3":
    raise SystemExit(3)
if mode == "crash":
    raise ZeroDivisionError("division by zero in the job")
if mode == "sleep":
    time.sleep(60)
'''

THREADED = '''
import threading, time
threading.Thread(target=lambda: time.sleep(60), daemon=True).start()
'''


def _wait(predicate, timeout=20.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.02)
    raise AssertionError("timed out")


@pytest.fixture()
def runner(tmp_path):
    def start(preload: str = "json", extra_path: Path | None = None):
        paths = [str(TRAINING)] + ([str(extra_path)] if extra_path else [])
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(paths), "OMP_NUM_THREADS": "1", "PYTHONUNBUFFERED": "1"}
        sock = tmp_path / "r.sock"
        proc = subprocess.Popen(
            [sys.executable, "-m", "trainyard_recipe.warm_runner", "--socket", str(sock), "--lock", str(tmp_path / "r.lock"),
             "--failed-file", str(tmp_path / "r.failed"), "--preload", preload, "--idle-seconds", "30"],
            env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
        )
        started.append(proc)
        return proc, sock

    started: list[subprocess.Popen] = []
    yield start
    for proc in started:
        proc.kill()
        proc.wait()


def _status(work: Path) -> dict:
    """The exit status the job's leader recorded, once it is there."""
    status = work / "status.json"
    return json.loads(_wait(lambda: status.exists() and status.read_text()))


def _ask(sock: Path, work: Path, mode: str, go: bool = True):
    work.mkdir(exist_ok=True)
    (work / "job_module.py").write_text(JOB)
    conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    conn.connect(str(sock))
    request = {"module": "job_module", "args": [mode], "cwd": str(work), "env": {"MARKER": "m1", "PATH": os.environ["PATH"]},
               "statusFile": str(work / "status.json"), "cpus": 1}
    conn.sendall(json.dumps(request).encode() + b"\n")
    reader = conn.makefile("rb")
    answer = json.loads(reader.readline())
    if go:
        conn.sendall(b"go\n")
    return conn, reader, answer


def test_a_job_runs_as_its_module_with_its_env_cwd_and_argv_and_its_exit_status_is_recorded(runner, tmp_path):
    _, sock = runner()
    _wait(sock.exists)
    work = tmp_path / "job1"
    conn, reader, answer = _ask(sock, work, "exit3")
    leader = answer["pid"]
    out = reader.read().decode()
    conn.close()
    assert f"argv ['exit3'] cwd {work} marker m1" in out
    assert "to stderr" in out
    status = _status(work)
    assert status["code"] == 3 and status["pid"] != leader


def test_a_job_that_raises_prints_its_traceback_and_exits_1(runner, tmp_path):
    _, sock = runner()
    _wait(sock.exists)
    work = tmp_path / "job2"
    conn, reader, _ = _ask(sock, work, "crash")
    out = reader.read().decode()
    conn.close()
    assert "ZeroDivisionError: division by zero in the job" in out
    assert _status(work)["code"] == 1


def test_without_go_nothing_runs(runner, tmp_path):
    _, sock = runner()
    _wait(sock.exists)
    work = tmp_path / "job3"
    conn, reader, answer = _ask(sock, work, "exit3", go=False)
    reader.close()  # the socket's file object holds it open too
    conn.close()
    leader = answer["pid"]
    _wait(lambda: not Path(f"/proc/{leader}").exists() or "Z" in Path(f"/proc/{leader}/stat").read_text().split(")")[-1][:3])
    assert not (work / "ran").exists()
    assert not (work / "status.json").exists()


def test_sigterm_to_the_group_ends_the_job_and_its_leader_still_records_it(runner, tmp_path):
    _, sock = runner()
    _wait(sock.exists)
    work = tmp_path / "job4"
    conn, reader, answer = _ask(sock, work, "sleep")
    leader = answer["pid"]
    reader.readline()  # the job printed: it runs
    assert os.getpgid(leader) == leader and os.getsid(leader) == leader
    os.killpg(leader, signal.SIGTERM)
    status = _status(work)
    assert status["signal"] == signal.SIGTERM
    conn.close()


def test_a_preload_that_starts_a_thread_is_refused_and_said_why(runner, tmp_path):
    extra = tmp_path / "mods"
    extra.mkdir()
    (extra / "threaded_mod.py").write_text(THREADED)
    proc, sock = runner("threaded_mod", extra)
    assert proc.wait(timeout=30) == 3
    assert not sock.exists()
    failed = json.loads((tmp_path / "r.failed").read_text())
    assert "2 threads" in failed["error"]
