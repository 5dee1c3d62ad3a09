"""OpenAI's official Python client against an LLM deployment's OpenAI-compatible routes,
used exactly as a user would (base_url = the deployment's /v1, api_key = its key). Each
check prints one JSON line of what it saw; server/deployments/deployments-llm.integration
.test.ts runs it and asserts on that line.

    python openai_client_check.py CHECK BASE_URL KEY [OTHER_KEY] [HEALTH_URL]

CHECK: basics | sampling | errors | disconnect.
"""

from __future__ import annotations

import json
import sys
import time

import openai
import requests
from openai import OpenAI

PROMPT = [{"role": "user", "content": "What is 2 + 3?"}]


def client(base_url: str, key: str) -> OpenAI:
    return OpenAI(base_url=base_url, api_key=key, max_retries=0, timeout=60)


def basics(base_url: str, key: str) -> dict:
    c = client(base_url, key)
    model = c.models.list().data[0].id
    chat = c.chat.completions.create(model=model, messages=PROMPT, max_tokens=8, temperature=0)
    text = c.completions.create(model=model, prompt="What is 2 + 3?", max_tokens=8, temperature=0)
    stream = c.chat.completions.create(model=model, messages=PROMPT, max_tokens=8, temperature=0, stream=True,
                                       stream_options={"include_usage": True})
    chunks = [chunk.model_dump() for chunk in stream]
    text_stream = c.completions.create(model=model, prompt="What is 2 + 3?", max_tokens=8, temperature=0, stream=True)
    return {
        "models": [m.model_dump() for m in c.models.list().data],
        "chat": chat.model_dump(),
        "completion": text.model_dump(),
        "streamChunks": chunks,
        "streamedCompletionText": "".join(ch.choices[0].text for ch in text_stream if ch.choices),
    }


def sampling(base_url: str, key: str) -> dict:
    c = client(base_url, key)
    model = c.models.list().data[0].id

    def ask(**kwargs):
        answer = c.chat.completions.create(model=model, messages=PROMPT, max_tokens=16, **kwargs)
        return {"text": answer.choices[0].message.content, "finish": answer.choices[0].finish_reason,
                "tokens": answer.usage.completion_tokens}

    first = ask(temperature=1.0, seed=1234)
    again = ask(temperature=1.0, seed=1234)
    others = [ask(temperature=1.0, seed=seed)["text"] for seed in (1, 2, 3)]
    text = first["text"]
    stop = text[len(text) // 2:len(text) // 2 + 2] if len(text) >= 4 else None
    cut = ask(temperature=1.0, seed=1234, stop=[stop]) if stop else None
    return {"first": first, "again": again, "others": others, "stop": stop, "cut": cut}


def errors(base_url: str, key: str, other_key: str) -> dict:
    def attempt(fn) -> dict:
        try:
            fn()
        except openai.APIStatusError as error:
            return {"class": type(error).__name__, "status": error.status_code, "param": error.param, "code": error.code,
                    "type": error.type, "message": error.message}
        return {"class": None}

    c = client(base_url, key)
    model = c.models.list().data[0].id
    chat = c.chat.completions.create
    return {
        "wrongKey": attempt(lambda: client(base_url, key + "x").chat.completions.create(model=model, messages=PROMPT, max_tokens=2)),
        "otherKey": attempt(lambda: client(base_url, other_key).models.list()),
        "tools": attempt(lambda: chat(model=model, messages=PROMPT, max_tokens=2, tools=[
            {"type": "function", "function": {"name": "add", "parameters": {"type": "object", "properties": {}}}}])),
        "logprobs": attempt(lambda: chat(model=model, messages=PROMPT, max_tokens=2, logprobs=True)),
        "n": attempt(lambda: chat(model=model, messages=PROMPT, max_tokens=2, n=2)),
        "badRole": attempt(lambda: chat(model=model, messages=[{"role": "robot", "content": "hi"}], max_tokens=2)),
        "unknownField": attempt(lambda: chat(model=model, messages=PROMPT, max_tokens=2, extra_body={"frobnicate": 1})),
        "tooManyTokens": attempt(lambda: chat(model=model, messages=PROMPT, max_tokens=100_000)),
        "otherModel": attempt(lambda: chat(model="gpt-4o", messages=PROMPT, max_tokens=2)),
    }


def disconnect(base_url: str, key: str, health_url: str) -> dict:
    """Reads one chunk of a long stream, sees the serving process busy, closes the stream, and
    times how long until the serving process has nothing computing."""
    def in_flight():
        serving = requests.get(health_url, headers={"Authorization": f"Bearer {key}"}, timeout=10).json()["serving"]
        return serving["inFlight"] if serving else None

    c = client(base_url, key)
    model = c.models.list().data[0].id
    stream = c.chat.completions.create(model=model, messages=[{"role": "user", "content": "Count to a thousand."}],
                                       max_tokens=1000, temperature=1.0, seed=1, stream=True)
    for chunk in stream:
        if chunk.choices and chunk.choices[0].delta.content:
            break
    busy = in_flight()
    stream.close()
    closed = time.monotonic()
    while in_flight() != 0 and time.monotonic() - closed < 10:
        time.sleep(0.05)
    return {"busyWhileStreaming": busy, "idleAfterMs": round((time.monotonic() - closed) * 1000), "idle": in_flight() == 0}


def main(argv: list[str]) -> None:
    check, base_url, key = argv[:3]
    rest = argv[3:]
    result = {"basics": lambda: basics(base_url, key), "sampling": lambda: sampling(base_url, key),
              "errors": lambda: errors(base_url, key, rest[0]), "disconnect": lambda: disconnect(base_url, key, rest[0])}[check]()
    print(json.dumps(result))


if __name__ == "__main__":
    main(sys.argv[1:])
