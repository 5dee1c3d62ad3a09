"""JSONL in three shapes becomes one conversation shape; every other line is named by number."""

from __future__ import annotations

import json

from recipes.llm_lora.tests.support import DATA
from recipes.llm_lora.conversations import read_examples


def test_prompt_completion_chat_and_alpaca_lines_become_user_then_assistant(tmp_path):
    real = json.loads((DATA / "gsm8k-prompt-completion.jsonl").read_text().splitlines()[0])
    chat = json.loads((DATA / "gsm8k-chat.jsonl").read_text().splitlines()[0])
    alpaca = {"instruction": "Solve the problem.", "input": real["prompt"], "output": real["completion"]}
    path = tmp_path / "mixed.jsonl"
    path.write_text("\n".join(json.dumps(o) for o in (real, chat, alpaca)) + "\n")
    examples, problems = read_examples(path)
    assert problems == []
    assert [e.format for e in examples] == ["prompt_completion", "chat", "alpaca"]
    assert examples[0].messages == (("user", real["prompt"]), ("assistant", real["completion"]))
    assert examples[1].messages == tuple((m["role"], m["content"]) for m in chat["messages"])
    assert examples[2].messages == (("user", f"Solve the problem.\n\n{real['prompt']}"), ("assistant", real["completion"]))


def test_empty_malformed_and_shapeless_lines_are_reported_with_their_line_numbers(tmp_path):
    good = (DATA / "gsm8k-prompt-completion.jsonl").read_text().splitlines()[:3]
    lines = [good[0], "", '{"prompt": "cut off', good[1], '["a list"]', '{"prompt": "q", "completion": ""}',
             '{"messages": [{"role": "user", "content": "hi"}]}', '{"text": "no known field"}', good[2]]
    path = tmp_path / "bad.jsonl"
    path.write_text("\n".join(lines) + "\n")
    examples, problems = read_examples(path)
    assert [e.line for e in examples] == [1, 4, 9]
    assert [(p.line, p.problem.split(" ")[0]) for p in problems] == [
        (2, "empty"), (3, "not"), (5, "not"), (6, "'prompt'"), (7, "the"), (8, "no")]
    assert "not valid JSON" in problems[1].problem and "assistant" in problems[4].problem
