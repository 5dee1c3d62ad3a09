"""The resident serving process on a real AutoGluon export of penguins: it listens on a
private socket at once and says `loading` until the model is in memory, then answers like the
export's own predict.py, refuses bad rows field by field, caps rows and bytes, refuses with
429 + Retry-After when its queue is full, and ends with its process group on SIGTERM."""

from __future__ import annotations

import csv
import io
import json
import socket
import stat
import subprocess
import threading
import time

import pytest

from conftest import FIXTURES, recipe_python
from recipes.export import verify
from serving.tests.support import UnixConnection, start_serving

ROW = {"island": "Biscoe", "bill_length_mm": 45.1, "bill_depth_mm": 14.5, "flipper_length_mm": 215.0,
       "body_mass_g": 5000.0, "sex": "female", "year": 2008}
LIMITS = {"maxRows": 20000, "maxRequestBytes": 8 * 1024 * 1024, "concurrency": 1, "maxQueue": 0}


def penguin_rows(n: int) -> list[dict]:
    with open(FIXTURES / "penguins.csv", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    out = []
    for row in rows:
        row.pop("species")
        numbers = {k: (float(v) if v not in ("", "NA") else None)
                   for k, v in row.items() if k not in ("island", "sex", "year")}
        out.append({"island": row["island"], "sex": row["sex"] or None, "year": int(row["year"]), **numbers})
    return [out[i % len(out)] for i in range(n)]


@pytest.fixture(scope="module")
def server(penguins_export, tmp_path_factory):
    process = start_serving("tabular", {"release": "rel_penguins", "export": str(penguins_export), "limits": LIMITS},
                            tmp_path_factory.mktemp("serve-tabular"))
    first = None
    while first is None and process.proc.poll() is None:  # the socket listens before the model has loaded
        try:
            first = process.request("GET", "/health").body
        except (FileNotFoundError, ConnectionRefusedError):
            time.sleep(0.05)
    process.first_health = first
    process.wait_ready()
    yield process
    process.stop()


def test_health_says_loading_until_the_model_is_loaded_then_ready(server):
    assert server.first_health["state"] == "loading"
    health = server.request("GET", "/health")
    assert health.status == 200
    assert health.body | {"uptimeSeconds": 0} == {"protocol": 1, "state": "ready", "kind": "tabular",
                                                  "release": "rel_penguins", "pid": server.proc.pid,
                                                  "uptimeSeconds": 0, "inFlight": 0, "queued": 0}
    states = [e["state"] for e in server.events() if e["type"] == "serving"]
    assert states == ["loading", "ready"]
    assert all(e["socket"] == str(server.socket) for e in server.events() if e["type"] == "serving")


def test_the_socket_is_private_to_the_worker_user(server):
    assert stat.S_IMODE(server.socket.stat().st_mode) == 0o600 and stat.S_ISSOCK(server.socket.stat().st_mode)
    assert stat.S_IMODE(server.socket.parent.stat().st_mode) == 0o700


def test_predictions_match_the_exports_own_predict_py(server, penguins_export, tmp_path):
    rows = penguin_rows(6)
    answer = server.request("POST", "/predict", {"rows": rows})
    assert answer.status == 200, answer.body
    assert answer.body["release"] == "rel_penguins"
    folder = tmp_path / "unpacked"
    verify.extract(str(penguins_export), str(folder))
    table = tmp_path / "rows.csv"
    columns = list(rows[0])
    with open(table, "w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=columns)
        writer.writeheader()
        writer.writerows([{k: ("" if v is None else v) for k, v in r.items()} for r in rows])
    out = subprocess.run([str(recipe_python("tabular")), str(folder / "predict.py"), str(table)], capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    expected = list(csv.DictReader(io.StringIO(out.stdout)))
    assert [p["prediction"] for p in answer.body["predictions"]] == [e["prediction"] for e in expected]
    for got, want in zip(answer.body["predictions"], expected):
        assert got["probabilities"] == pytest.approx({k[len("proba::"):]: float(v) for k, v in want.items()
                                                      if k.startswith("proba::")}, abs=1e-9)


def test_bad_rows_are_refused_with_one_error_per_field(server):
    good = dict(ROW)
    bad = dict(ROW, bill_length_mm="long", sex=["f"], wingspan=3)
    del bad["year"]
    answer = server.request("POST", "/predict", {"rows": [good, bad]})
    assert answer.status == 400
    assert answer.body["error"]["code"] == "bad_input"
    paths = {f["path"] for f in answer.body["error"]["fields"]}
    assert paths == {"rows[1].bill_length_mm", "rows[1].sex", "rows[1].wingspan", "rows[1].year"}


def test_more_rows_than_the_cap_are_refused_before_any_is_read(server):
    answer = server.request("POST", "/predict", {"rows": [{}] * (LIMITS["maxRows"] + 1)})
    assert answer.status == 413 and answer.body["error"]["code"] == "too_large"


def _content_length(raw: bytes) -> int:
    head = raw.split(b"\r\n\r\n", 1)[0].decode().lower()
    return next((int(line.split(":", 1)[1]) for line in head.split("\r\n") if line.startswith("content-length:")), 0)


def test_a_body_over_the_byte_cap_is_refused_from_its_content_length(server):
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.settimeout(30)
        sock.connect(str(server.socket))
        sock.sendall(f"POST /predict HTTP/1.1\r\nHost: s\r\nContent-Length: {LIMITS['maxRequestBytes'] + 1}\r\n\r\n"
                     .encode())
        # The answer may come in more than one segment (headers, then body): read all of it.
        raw = b""
        while b"\r\n\r\n" not in raw or len(raw.split(b"\r\n\r\n", 1)[1]) < _content_length(raw):
            chunk = sock.recv(65536)
            if not chunk:
                break
            raw += chunk
        reply = raw.decode()
    assert reply.startswith("HTTP/1.1 413"), reply[:200]
    assert json.loads(reply.split("\r\n\r\n", 1)[1])["error"]["code"] == "too_large"


def test_a_full_queue_answers_429_with_retry_after_while_the_first_request_still_succeeds(server):
    big = {"rows": penguin_rows(LIMITS["maxRows"])}
    first: dict = {}

    def send_big() -> None:
        first["answer"] = server.request("POST", "/predict", big, timeout=300)

    worker = threading.Thread(target=send_big)
    worker.start()
    deadline = time.monotonic() + 60
    while server.request("GET", "/health").body["inFlight"] == 0:
        assert time.monotonic() < deadline and worker.is_alive(), "the big request never started computing"
        time.sleep(0.02)
    refused = server.request("POST", "/predict", {"rows": [ROW]})
    worker.join(300)
    assert refused.status == 429, refused.body
    assert refused.body["error"]["code"] == "overloaded" and int(refused.headers["retry-after"]) >= 1
    assert first["answer"].status == 200 and len(first["answer"].body["predictions"]) == LIMITS["maxRows"]


def test_an_llm_route_on_a_tabular_release_is_the_wrong_kind(server):
    answer = server.request("POST", "/generate", {"prompt": "hi"})
    assert answer.status == 404 and answer.body["error"]["code"] == "wrong_kind"


def test_keep_alive_serves_several_requests_on_one_connection(server):
    conn = UnixConnection(str(server.socket))
    try:
        for _ in range(3):
            conn.request("POST", "/predict", body=json.dumps({"rows": [ROW]}))
            res = conn.getresponse()
            assert res.status == 200 and json.loads(res.read())["predictions"][0]["prediction"] in ("Adelie", "Chinstrap", "Gentoo")
    finally:
        conn.close()


def test_sigterm_ends_the_process_and_removes_its_socket(penguins_export, tmp_path):
    process = start_serving("tabular", {"release": "rel_stop", "export": str(penguins_export)}, tmp_path)
    process.wait_ready()
    assert process.stop() == 130
    assert not process.socket.exists()
    assert json.loads((process.job_dir / "report.json").read_text())["error"]["code"] == "stopped"


def test_a_socket_path_linux_cannot_bind_is_refused_in_words(penguins_export, tmp_path):
    too_long = tmp_path / ("d" * 120) / "serve.sock"
    process = start_serving("tabular", {"release": "rel_x", "export": str(penguins_export)}, tmp_path, too_long)
    assert process.proc.wait(120) == 2
    report = json.loads((process.job_dir / "report.json").read_text())
    assert report["error"]["code"] == "socket_path_too_long"
    assert "107" in report["error"]["message"]


def test_a_tampered_archive_is_refused_before_anything_is_loaded(penguins_export, tmp_path):
    broken = tmp_path / "export.tar.gz"
    data = bytearray(penguins_export.read_bytes())
    broken.write_bytes(bytes(data[: len(data) // 2]))
    process = start_serving("tabular", {"release": "rel_x", "export": str(broken)}, tmp_path)
    assert process.proc.wait(120) != 0
    assert not any(e["type"] == "serving" and e["state"] == "ready" for e in process.events())


def test_an_input_field_the_job_does_not_know_is_refused(penguins_export, tmp_path):
    process = start_serving("tabular", {"release": "rel_x", "export": str(penguins_export), "limit": {"maxRows": 1}},
                            tmp_path)
    assert process.proc.wait(120) == 2
    report = json.loads((process.job_dir / "report.json").read_text())
    assert report["error"]["code"] == "invalid_input" and "limit" in report["error"]["message"]


def test_idle_unload_ends_the_process_after_a_quiet_spell_that_health_checks_do_not_break(penguins_export, tmp_path):
    process = start_serving("tabular", {"release": "rel_idle", "export": str(penguins_export), "idleUnloadSeconds": 3},
                            tmp_path)
    process.wait_ready()
    assert process.request("POST", "/predict", {"rows": [ROW]}).status == 200
    used = time.monotonic()
    while process.proc.poll() is None:
        try:
            process.request("GET", "/health", timeout=5)
        except (FileNotFoundError, ConnectionError):
            # the socket went away, or a request that reached it as it closed was reset: the process is ending
            pass
        assert time.monotonic() - used < 60
        time.sleep(0.2)
    assert time.monotonic() - used >= 3
    assert process.proc.returncode == 0
    assert json.loads((process.job_dir / "report.json").read_text())["status"] == "completed"
    assert [e["state"] for e in process.events() if e["type"] == "serving"] == ["loading", "ready", "unloaded"]
    assert not process.socket.exists()
