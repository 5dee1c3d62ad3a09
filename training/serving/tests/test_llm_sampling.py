"""Sampling and stop sequences in the resident serving process, on a real llm-lora export of
the tiny GPT-2: a seeded sampled request gives the same text again (and another seed other
text), temperature 0 is the greedy answer, a stop sequence ends the text before it with
finish reason stop (in /generate and in the /stream deltas alike), bad sampling fields are
refused field by field."""

from __future__ import annotations

import pytest

from serving.tests.support import start_serving
from serving.tests.test_llm_serving import open_stream, read_sse

PROMPT = "What is 2 + 3?"


@pytest.fixture(scope="module")
def server(tiny_lora, tmp_path_factory):
    archive, base = tiny_lora
    process = start_serving("llm", {"release": "rel_sampling", "export": str(archive), "base": str(base),
                                    "limits": {"maxNewTokens": 64}}, tmp_path_factory.mktemp("serve-sampling"))
    process.wait_ready()
    yield process
    process.stop()


def generate(server, **body):
    answer = server.request("POST", "/generate", {"prompt": PROMPT, "maxNewTokens": 16, **body})
    assert answer.status == 200, answer.body
    return answer.body


def test_a_seeded_sampled_generation_is_reproducible_and_another_seed_differs(server):
    first = generate(server, temperature=1.0, topP=0.95, seed=1234)
    generate(server, temperature=1.0, seed=99)  # another request in between changes nothing of the next
    again = generate(server, temperature=1.0, topP=0.95, seed=1234)
    assert first["text"] == again["text"] and first["generatedTokens"] == again["generatedTokens"]
    others = {generate(server, temperature=1.0, seed=seed)["text"] for seed in (1, 2, 3)}
    assert len(others | {first["text"]}) > 1  # the seed, not a fixed choice, decides


def test_temperature_zero_is_the_greedy_answer(server):
    greedy = generate(server)
    assert generate(server, temperature=0, seed=5)["text"] == greedy["text"]
    assert generate(server, temperature=0.5, topP=0)["text"] == greedy["text"]  # top_p 0 keeps the likeliest token only


def test_a_stop_sequence_ends_the_text_before_it_in_generate_and_stream(server):
    sampled = generate(server, temperature=1.0, seed=7)
    text = sampled["text"]
    assert len(text) >= 4, sampled
    stop = text[len(text) // 2:len(text) // 2 + 2]
    expected = text[:text.index(stop)]
    cut = generate(server, temperature=1.0, seed=7, stop=[stop, "never appears here"])
    assert cut["text"] == expected and cut["finishReason"] == "stop"
    assert cut["generatedTokens"] <= sampled["generatedTokens"]
    with open_stream(server, {"prompt": PROMPT, "maxNewTokens": 16, "temperature": 1.0, "seed": 7, "stop": [stop]}) as sock:
        events = read_sse(sock)
    assert "".join(data["text"] for kind, data in events if kind == "delta") == expected
    assert events[-1] == ("result", {"promptTokens": cut["promptTokens"], "generatedTokens": cut["generatedTokens"],
                                     "finishReason": "stop"})


def test_bad_sampling_fields_are_refused_field_by_field(server):
    answer = server.request("POST", "/generate", {"prompt": PROMPT, "temperature": 3, "topP": "high", "seed": 1.5,
                                                  "stop": "x", "logprobs": True})
    assert answer.status == 400
    assert {f["path"] for f in answer.body["error"]["fields"]} == {"temperature", "topP", "seed", "stop", "logprobs"}
