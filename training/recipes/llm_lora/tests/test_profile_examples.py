"""profile_examples: a JSONL file's profile without any model, as the wizard previews it."""

from __future__ import annotations

import json

from recipes.llm_lora.tests.support import DATA, run

LINES = (DATA / "gsm8k-prompt-completion.jsonl").read_text().splitlines()
CHAT = (DATA / "gsm8k-chat.jsonl").read_text().splitlines()


def test_profile_lists_formats_problem_lines_duplicates_and_a_preview_without_importing_torch(tmp_path):
    lines = [LINES[0], CHAT[0], "", "{broken", LINES[0].replace('"prompt": "', '"prompt": "  '), LINES[1]]
    data = tmp_path / "examples.jsonl"
    data.write_text("\n".join(lines) + "\n")
    # -X importtime lists every module the job process imports: the profile must not pay for torch
    result = run("profile_examples", {"data": str(data), "maxPreview": 2}, tmp_path,
                 extra_env={"PYTHONPROFILEIMPORTTIME": "1"})
    assert result.returncode == 0, result.describe()
    imported = {line.rsplit("|", 1)[-1].strip() for line in result.stderr.splitlines() if line.startswith("import time:")}
    assert "recipes.llm_lora.profile_examples" in imported
    assert not {name for name in imported if name.split(".")[0] in ("torch", "transformers", "peft", "trl")}
    profile = result.output_json("examples.json")
    assert profile["formats"] == ["chat", "prompt_completion"]
    assert profile["lines"] == {"usable": 4, "problems": {"count": 2, "lines": [
        {"line": 3, "problem": "empty line"}, {"line": 4, "problem": profile["lines"]["problems"]["lines"][1]["problem"]}]}}
    assert profile["lines"]["problems"]["lines"][1]["problem"].startswith("not valid JSON")
    assert profile["duplicates"]["count"] == 1 and profile["duplicates"]["first"] == [{"line": 5, "duplicateOf": 1}]
    first = json.loads(LINES[0])
    assert profile["preview"] == [
        {"line": 1, "messages": [{"role": "user", "content": first["prompt"]},
                                 {"role": "assistant", "content": first["completion"]}]},
        {"line": 2, **json.loads(CHAT[0])}]
    assert result.report["metrics"]["usable"] == 4


def test_a_file_with_no_usable_example_is_refused_naming_its_first_bad_line(tmp_path):
    data = tmp_path / "notes.jsonl"
    data.write_text('{"text": "a note"}\n\nnot json\n')
    result = run("profile_examples", {"data": str(data)}, tmp_path)
    assert result.returncode == 2, result.describe()
    error = result.report["error"]
    assert error["code"] == "no_usable_example"
    assert "line 1: no known fields" in error["message"] and "prompt/completion" in error["message"]
