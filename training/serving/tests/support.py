"""A serving process started as the worker starts it (its recipe environment, the job's
TRAINYARD_* variables, its own process group) and an HTTP client for its Unix socket."""

from __future__ import annotations

import http.client
import json
import os
import signal
import socket
import subprocess
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from conftest import TRAINING, read_events, recipe_python  # training/conftest.py

ENVIRONMENT_OF = {"tabular": "tabular", "llm": "llm_lora"}  # serving/<kind> runs in that recipe's env


class UnixConnection(http.client.HTTPConnection):
    def __init__(self, path: str, timeout: float = 60) -> None:
        super().__init__("serving", timeout=timeout)
        self.socket_path = path

    def connect(self) -> None:
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(self.timeout)
        self.sock.connect(self.socket_path)


@dataclass
class Answer:
    status: int
    headers: dict
    body: object


def short_socket_path() -> Path:
    """Under /tmp: pytest's own folders are too deep for sockaddr_un's 107 bytes."""
    return Path(tempfile.mkdtemp(prefix="tys-")) / "run" / "serve.sock"


@dataclass
class ServingProcess:
    proc: subprocess.Popen
    job_dir: Path
    socket: Path

    def events(self) -> list[dict]:
        return read_events(self.job_dir / "events.jsonl")

    def stderr_text(self) -> str:
        return (self.job_dir / "stderr.txt").read_text(encoding="utf-8", errors="replace")

    def wait_ready(self, timeout: float = 120) -> dict:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                raise AssertionError(f"serving exited {self.proc.returncode}:\n{self.stderr_text()[-3000:]}")
            ready = [e for e in self.events() if e["type"] == "serving" and e["state"] == "ready"]
            if ready:
                return ready[0]
            time.sleep(0.2)
        raise AssertionError(f"serving not ready after {timeout} s:\n{self.stderr_text()[-3000:]}")

    def request(self, method: str, path: str, body=None, timeout: float = 120) -> Answer:
        conn = UnixConnection(str(self.socket), timeout)
        try:
            data = None if body is None else json.dumps(body).encode("utf-8")
            conn.request(method, path, body=data, headers={"Content-Type": "application/json"} if data else {})
            res = conn.getresponse()
            raw = res.read()
            return Answer(res.status, {k.lower(): v for k, v in res.getheaders()}, json.loads(raw) if raw else None)
        finally:
            conn.close()

    def stop(self, timeout: float = 60) -> int:
        if self.proc.poll() is None:
            os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            return self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            raise AssertionError("serving did not stop within 60 s of SIGTERM") from None


def start_serving(kind: str, job_input: dict, root: Path, socket_path: Path | None = None) -> ServingProcess:
    job_dir = Path(tempfile.mkdtemp(prefix=f"serve-{kind}-", dir=root))
    for name in ("work", "output", "checkpoint"):
        (job_dir / name).mkdir()
    sock = socket_path or short_socket_path()
    (job_dir / "input.json").write_text(json.dumps({"socket": str(sock), **job_input}), encoding="utf-8")
    env = {key: os.environ[key] for key in ("PATH", "HOME", "LANG", "TMPDIR") if key in os.environ}
    env.update({
        "TRAINYARD_JOB_ID": job_dir.name, "TRAINYARD_WORK_DIR": str(job_dir / "work"),
        "TRAINYARD_OUTPUT_DIR": str(job_dir / "output"), "TRAINYARD_CHECKPOINT_DIR": str(job_dir / "checkpoint"),
        "TRAINYARD_EVENTS_FILE": str(job_dir / "events.jsonl"), "TRAINYARD_REPORT_FILE": str(job_dir / "report.json"),
        "TRAINYARD_CPUS": "1", "OMP_NUM_THREADS": "1", "PYTHONPATH": str(TRAINING), "PYTHONUNBUFFERED": "1",
        "HF_HUB_OFFLINE": "1",
    })
    python = recipe_python(ENVIRONMENT_OF[kind])
    with open(job_dir / "stderr.txt", "wb") as stderr:
        proc = subprocess.Popen([str(python), "-m", f"serving.{kind}", "serve", "--input", str(job_dir / "input.json")],
                                cwd=job_dir / "work", env=env, stdout=subprocess.DEVNULL, stderr=stderr,
                                start_new_session=True)
    return ServingProcess(proc=proc, job_dir=job_dir, socket=sock)
