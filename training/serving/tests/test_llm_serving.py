"""The resident serving process on a real llm-lora export (4 LoRA steps on the tiny GPT-2):
generate answers greedily, /stream sends metadata, whole-character deltas that add up to the
same text, heartbeats and one result; a client that leaves stops its generation; the
deadline, token caps and the queue hold; a base folder other than the adapter's is refused."""

from __future__ import annotations

import json
import shutil
import socket
import time

import pytest

from serving.tests.support import start_serving

LIMITS = {"maxNewTokens": 900, "maxPromptTokens": 200, "concurrency": 1, "maxQueue": 0, "requestDeadlineSeconds": 60}


def read_sse(sock: socket.socket, stop_after: str | None = None) -> list[tuple[str, dict]]:
    """Events of a /stream answer until the connection ends (or the first `stop_after`)."""
    buffer, events = b"", []
    header_done = False
    while True:
        chunk = sock.recv(65536)
        if not chunk:
            return events
        buffer += chunk
        if not header_done:
            if b"\r\n\r\n" not in buffer:
                continue
            head, buffer = buffer.split(b"\r\n\r\n", 1)
            assert head.startswith(b"HTTP/1.1 200"), head
            assert b"text/event-stream" in head
            header_done = True
        while b"\n\n" in buffer:
            block, buffer = buffer.split(b"\n\n", 1)
            lines = dict(line.split(": ", 1) for line in block.decode("utf-8").split("\n"))
            events.append((lines["event"], json.loads(lines["data"])))
            if events[-1][0] == stop_after:
                return events


def open_stream(server, body: dict) -> socket.socket:
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    sock.settimeout(120)
    sock.connect(str(server.socket))
    data = json.dumps(body).encode()
    sock.sendall(b"POST /stream HTTP/1.1\r\nHost: s\r\nContent-Type: application/json\r\n"
                 + f"Content-Length: {len(data)}\r\n\r\n".encode() + data)
    return sock


@pytest.fixture(scope="module")
def server(tiny_lora, tmp_path_factory):
    archive, base = tiny_lora
    process = start_serving("llm", {"release": "rel_tiny", "export": str(archive), "base": str(base), "limits": LIMITS,
                                    "heartbeatSeconds": 0.05}, tmp_path_factory.mktemp("serve-llm"))
    process.wait_ready()
    yield process
    process.stop()


def test_generate_answers_greedily_and_counts_tokens(server):
    first = server.request("POST", "/generate", {"prompt": "What is 2 + 3?", "maxNewTokens": 12})
    again = server.request("POST", "/generate", {"messages": [{"role": "user", "content": "What is 2 + 3?"}],
                                                 "maxNewTokens": 12})
    assert first.status == 200, first.body
    assert first.body["release"] == "rel_tiny" and first.body["promptTokens"] > 0
    assert 1 <= first.body["generatedTokens"] <= 12 and first.body["finishReason"] in ("stop", "length")
    assert again.body["text"] == first.body["text"]  # one user message is the same prompt either way


def test_stream_sends_metadata_whole_character_deltas_and_one_result_matching_generate(server):
    body = {"prompt": "Tom has 3 apples and buys 2 more.", "maxNewTokens": 40}
    with open_stream(server, body) as sock:
        events = read_sse(sock)
    kinds = [kind for kind, _ in events]
    assert kinds[0] == "metadata" and events[0][1]["release"] == "rel_tiny"
    assert kinds[-1] == "result" and kinds.count("result") == 1 and "error" not in kinds
    deltas = [data["text"] for kind, data in events if kind == "delta"]
    assert all("\ufffd" not in d for d in deltas)
    plain = server.request("POST", "/generate", body).body
    assert "".join(deltas) == plain["text"]
    assert events[-1][1] == {"promptTokens": plain["promptTokens"], "generatedTokens": plain["generatedTokens"],
                             "finishReason": plain["finishReason"]}


def test_a_client_that_disconnects_stops_its_generation(server):
    started = time.monotonic()
    sock = open_stream(server, {"prompt": "Count to a thousand.", "maxNewTokens": LIMITS["maxNewTokens"]})
    assert read_sse(sock, stop_after="metadata")[0][0] == "metadata"
    sock.close()
    while server.request("GET", "/health").body["inFlight"]:
        assert time.monotonic() - started < 60
        time.sleep(0.05)
    deadline = time.monotonic() + 10
    while "/stream cancelled: client disconnected" not in server.stderr_text():
        assert time.monotonic() < deadline, server.stderr_text()[-2000:]
        time.sleep(0.05)


def test_too_many_new_tokens_or_prompt_tokens_are_refused(server):
    more = server.request("POST", "/generate", {"prompt": "hi", "maxNewTokens": LIMITS["maxNewTokens"] + 1})
    assert more.status == 413 and more.body["error"]["fields"][0]["path"] == "maxNewTokens"
    long = server.request("POST", "/generate", {"prompt": "word " * 400})
    assert long.status == 413 and long.body["error"]["code"] == "too_large"
    bad = server.request("POST", "/generate", {"prompt": "hi", "messages": []})
    assert bad.status == 400 and {f["path"] for f in bad.body["error"]["fields"]} >= {"prompt", "messages"}


def test_a_predict_on_an_llm_release_is_the_wrong_kind(server):
    answer = server.request("POST", "/predict", {"rows": [{"a": 1}]})
    assert answer.status == 404 and answer.body["error"]["code"] == "wrong_kind"


def test_the_deadline_ends_a_long_generation_with_finish_reason_deadline(tiny_lora, tmp_path):
    archive, base = tiny_lora
    process = start_serving("llm", {"release": "rel_fast", "export": str(archive), "base": str(base),
                                    "limits": {"maxNewTokens": 900, "requestDeadlineSeconds": 0.5}}, tmp_path)
    try:
        process.wait_ready()
        started = time.monotonic()
        answer = process.request("POST", "/generate", {"prompt": "Go on forever.", "maxNewTokens": 900})
        assert answer.status == 200, answer.body
        assert answer.body["finishReason"] == "deadline" and answer.body["generatedTokens"] < 900
        assert time.monotonic() - started < 5
    finally:
        process.stop()


def test_generation_stops_at_the_models_context_and_a_prompt_that_fills_it_is_refused(tiny_lora, tmp_path):
    archive, base = tiny_lora  # the tiny GPT-2 holds 1024 positions
    process = start_serving("llm", {"release": "rel_ctx", "export": str(archive), "base": str(base),
                                    "limits": {"maxNewTokens": 2000, "maxPromptTokens": 4000}}, tmp_path)
    try:
        process.wait_ready()
        answer = process.request("POST", "/generate", {"prompt": "Go on forever.", "maxNewTokens": 2000})
        assert answer.status == 200, answer.body
        assert answer.body["promptTokens"] + answer.body["generatedTokens"] <= 1024
        full = process.request("POST", "/generate", {"prompt": "word " * 1100, "maxNewTokens": 1})
        assert full.status == 413 and full.body["error"]["code"] == "too_large", full.body
    finally:
        process.stop()


def test_a_base_folder_other_than_the_adapters_is_refused(tiny_lora, tmp_path):
    archive, base = tiny_lora
    other = tmp_path / "other-base"
    shutil.copytree(base, other)
    model = other / "model" if (other / "model").is_dir() else other
    (model / "config.json").chmod(0o644)
    (model / "config.json").write_text((model / "config.json").read_text() + " ")
    process = start_serving("llm", {"release": "rel_x", "export": str(archive), "base": str(other)}, tmp_path)
    assert process.proc.wait(180) == 2
    assert json.loads((process.job_dir / "report.json").read_text())["error"]["code"] == "base_mismatch"
