"""JSONL examples in three shapes, normalised to one: a list of chat messages ending with the
assistant's answer (the completion, the only part that is trained and scored).

  {"prompt": "...", "completion": "..."}                 -> user, assistant
  {"messages": [{"role", "content"}, ...]}               -> as given (last message: assistant)
  {"instruction": "...", "input": "...", "output": "..."} -> user (instruction + input), assistant
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

ROLES = ("system", "user", "assistant")


@dataclass(frozen=True)
class LineProblem:
    line: int
    problem: str


@dataclass(frozen=True)
class Example:
    line: int
    format: str
    messages: tuple[tuple[str, str], ...]  # (role, content), the last one is the assistant's answer

    def as_json(self) -> dict:
        return {"messages": [{"role": role, "content": content} for role, content in self.messages]}

    def prompt_key(self) -> str:
        """The prompt with case and whitespace normalised: what train/eval overlap compares."""
        return normalise(" ".join(f"{role}: {content}" for role, content in self.messages[:-1]))

    def key(self) -> str:
        return normalise(" ".join(f"{role}: {content}" for role, content in self.messages))


def normalise(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().casefold()


def _text(value: object) -> str | None:
    return value if isinstance(value, str) and value.strip() else None


def _from_object(obj: dict) -> tuple[str, list[tuple[str, str]]]:
    """(format, messages); ValueError says what is wrong with this example."""
    if "messages" in obj:
        raw = obj["messages"]
        if not isinstance(raw, list) or not raw:
            raise ValueError("'messages' must be a non-empty list")
        messages = []
        for index, message in enumerate(raw):
            if not isinstance(message, dict) or message.get("role") not in ROLES or not isinstance(message.get("content"), str):
                raise ValueError(f"message {index} must be {{'role': system|user|assistant, 'content': text}}")
            messages.append((message["role"], message["content"]))
        if messages[-1][0] != "assistant" or not messages[-1][1].strip():
            raise ValueError("the last message must be a non-empty assistant message (the answer to learn)")
        if not any(role == "user" for role, _ in messages[:-1]):
            raise ValueError("there is no user message before the assistant's answer")
        return "chat", messages
    if "prompt" in obj or "completion" in obj:
        prompt, completion = _text(obj.get("prompt")), _text(obj.get("completion"))
        if prompt is None or completion is None:
            raise ValueError("'prompt' and 'completion' must both be non-empty text")
        return "prompt_completion", [("user", prompt), ("assistant", completion)]
    if "instruction" in obj or "output" in obj:
        instruction, output = _text(obj.get("instruction")), _text(obj.get("output"))
        extra = obj.get("input")
        if instruction is None or output is None or (extra is not None and not isinstance(extra, str)):
            raise ValueError("'instruction' and 'output' must be non-empty text ('input' optional text)")
        user = instruction if not (extra and extra.strip()) else f"{instruction}\n\n{extra}"
        return "alpaca", [("user", user), ("assistant", output)]
    raise ValueError("no known fields: expected prompt/completion, messages, or instruction/input/output")


def read_examples(path: Path) -> tuple[list[Example], list[LineProblem]]:
    """Every line of a JSONL file: the usable examples, and each other line's problem (1-based)."""
    examples: list[Example] = []
    problems: list[LineProblem] = []
    with open(path, "rb") as handle:
        for number, raw in enumerate(handle, start=1):
            try:
                line = raw.decode("utf-8").strip()
            except UnicodeDecodeError:
                problems.append(LineProblem(number, "not UTF-8 text"))
                continue
            if not line:
                problems.append(LineProblem(number, "empty line"))
                continue
            try:
                obj = json.loads(line)
            except json.JSONDecodeError as exc:
                problems.append(LineProblem(number, f"not valid JSON ({exc.msg} at column {exc.colno})"))
                continue
            if not isinstance(obj, dict):
                problems.append(LineProblem(number, "not a JSON object"))
                continue
            try:
                shape, messages = _from_object(obj)
            except ValueError as exc:
                problems.append(LineProblem(number, str(exc)))
                continue
            examples.append(Example(number, shape, tuple(messages)))
    return examples, problems


def load_normalised(path: Path) -> list[list[dict]]:
    """The messages of each line of a check_data output file (train.jsonl / eval.jsonl)."""
    return [json.loads(line)["messages"] for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
