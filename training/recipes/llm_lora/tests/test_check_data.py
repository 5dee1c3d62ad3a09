"""check_data: the checks report on real GSM8K lines, the recorded split, and its refusals."""

from __future__ import annotations

import hashlib
import json
import shutil

import pytest

from conftest import make_job_context
from recipes.llm_lora.check_data import run_check_data
from recipes.llm_lora.conversations import load_normalised, normalise
from recipes.llm_lora.tests.support import DATA
from trainyard_recipe import BadInput

LINES = (DATA / "gsm8k-prompt-completion.jsonl").read_text().splitlines()


def _check(tmp_path, model, **job_input):
    ctx = make_job_context(tmp_path, cpus=2)
    metrics = run_check_data(ctx, {"model": str(model), **job_input})
    return ctx.output_dir, metrics


def _prompts(path) -> set[str]:
    return {normalise(" ".join(f"{m['role']}: {m['content']}" for m in conv[:-1])) for conv in load_normalised(path)}


def test_report_names_bad_lines_duplicates_long_examples_and_token_statistics(tmp_path, tiny):
    shouty = json.loads(LINES[1])
    shouty["prompt"] = "  " + shouty["prompt"].upper() + "  "  # same example once case/space are normalised
    shouty["completion"] = shouty["completion"].upper()
    lines = [*LINES[:30], "", LINES[2], "{broken", json.dumps(shouty)]
    data = tmp_path / "data.jsonl"
    data.write_text("\n".join(lines) + "\n")
    out, metrics = _check(tmp_path, tiny, data=str(data), maxLength=128, evalFraction=0.2, seed=1)
    checks = json.loads((out / "checks.json").read_text())
    assert [(p["line"], p["problem"][:8]) for p in checks["lines"]["problems"]["lines"]] == [(31, "empty li"),
                                                                                            (33, "not vali")]
    assert checks["duplicates"]["first"] == [{"line": 32, "duplicateOf": 3}, {"line": 34, "duplicateOf": 2}]
    train = checks["tokens"]["train"]
    assert train["count"] == metrics["trainExamples"] and train["max"] > 128 and train["overMaxLength"] >= 1
    assert train["min"] <= train["p50"] <= train["p95"] <= train["max"] and "keep their first" in checks["truncation"]
    assert metrics["trainExamples"] + metrics["evalExamples"] == 30
    assert checks["split"] == {"strategy": "random_by_prompt", "evalFraction": 0.2, "seed": 1,
                               "dedup": "exact_duplicates_first_kept"}
    assert not _prompts(out / "train.jsonl") & _prompts(out / "eval.jsonl")
    assert checks["preview"][0]["messages"][0]["role"] == "user"


def test_the_split_is_the_same_for_the_same_seed_and_differs_for_another(tmp_path, tiny):
    data = str(DATA / "gsm8k-prompt-completion.jsonl")
    first, _ = _check(tmp_path / "a", tiny, data=data, seed=5)
    again, _ = _check(tmp_path / "b", tiny, data=data, seed=5)
    other, _ = _check(tmp_path / "c", tiny, data=data, seed=6)
    assert (first / "eval.jsonl").read_bytes() == (again / "eval.jsonl").read_bytes()
    assert (first / "eval.jsonl").read_bytes() != (other / "eval.jsonl").read_bytes()


def test_a_user_eval_file_stays_as_given_and_overlapping_training_examples_go(tmp_path, tiny):
    eval_file = tmp_path / "eval.jsonl"
    held_out = (DATA / "gsm8k-chat.jsonl").read_text().splitlines()[:5]  # not in the training file
    eval_file.write_text("\n".join([*held_out, *LINES[45:48]]) + "\n")
    out, metrics = _check(tmp_path, tiny, data=str(DATA / "gsm8k-prompt-completion.jsonl"), eval=str(eval_file))
    checks = json.loads((out / "checks.json").read_text())
    assert (metrics["trainExamples"], metrics["evalExamples"]) == (45, 8)
    assert checks["overlap"]["removedFromTraining"] == 3 and checks["overlap"]["lines"] == [46, 47, 48]
    assert checks["split"]["strategy"] == "user_file"


def test_trained_prompts_lists_the_hash_of_every_prompt_trained_and_evaluated_on_and_no_holdouts(tmp_path, tiny):
    holdout = tmp_path / "holdout.jsonl"
    holdout.write_text("\n".join(_shouted_chat(LINES[10:15])) + "\n")
    eval_file = tmp_path / "eval.jsonl"
    eval_file.write_text("\n".join([*(DATA / "gsm8k-chat.jsonl").read_text().splitlines()[:5], *LINES[45:48]]) + "\n")
    out, _ = _check(tmp_path / "out", tiny, data=str(DATA / "gsm8k-prompt-completion.jsonl"), eval=str(eval_file),
                    holdouts=[str(holdout)])
    checks = json.loads((out / "checks.json").read_text())
    listed = (out / "trained_prompts.txt").read_text().splitlines()
    assert checks["trainedPromptsFile"] == "trained_prompts.txt"
    assert checks["trainedPromptsSha256"] == hashlib.sha256((out / "trained_prompts.txt").read_bytes()).hexdigest()
    # 40 training prompts left (48, less 3 in the evaluation file, less 5 reserved) and the 8 evaluated.
    assert json.loads(listed[0]) == {"version": 1, "rule": "normalised prompt", "prompts": 48}
    expected = {hashlib.sha256(p.encode()).hexdigest() for p in _prompts(out / "train.jsonl") | _prompts(out / "eval.jsonl")}
    assert listed[1:] == sorted(expected) and len(expected) == 48
    assert not {hashlib.sha256(p.encode()).hexdigest() for p in _prompts(holdout)} & set(listed[1:])


def _shouted_chat(lines: list[str]) -> list[str]:
    """The same prompts as chat messages, upper-cased and re-spaced, with other answers."""
    return [json.dumps({"messages": [{"role": "user", "content": "  " + json.loads(line)["prompt"].upper().replace(" ", "   ")},
                                     {"role": "assistant", "content": "another answer"}]}) for line in lines]


def test_a_reserved_holdouts_prompts_reach_neither_training_nor_evaluation(tmp_path, tiny):
    holdout = tmp_path / "holdout.jsonl"
    holdout.write_text("\n".join(_shouted_chat(LINES[10:15])) + "\n")
    data = str(DATA / "gsm8k-prompt-completion.jsonl")
    out, metrics = _check(tmp_path / "split", tiny, data=data, holdouts=[str(holdout)], seed=3)
    checks = json.loads((out / "checks.json").read_text())
    assert checks["holdout"] == {"holdouts": 1, "removed": 5, "lines": [11, 12, 13, 14, 15], "rule": "normalised prompt"}
    assert metrics["trainExamples"] + metrics["evalExamples"] == 43
    held = _prompts(holdout)
    assert len(held) == 5 and not held & (_prompts(out / "train.jsonl") | _prompts(out / "eval.jsonl"))

    # A user's evaluation file loses its holdout prompts too.
    eval_file = tmp_path / "eval.jsonl"
    eval_file.write_text("\n".join([*(DATA / "gsm8k-chat.jsonl").read_text().splitlines()[:5], LINES[12]]) + "\n")
    out, metrics = _check(tmp_path / "user", tiny, data=data, eval=str(eval_file), holdouts=[str(holdout)])
    assert metrics["evalExamples"] == 5 and json.loads((out / "checks.json").read_text())["holdout"]["removed"] == 6

    # No holdout: nothing said of one.
    plain, _ = _check(tmp_path / "plain", tiny, data=data, seed=3)
    assert "holdout" not in json.loads((plain / "checks.json").read_text())


def test_data_whose_every_prompt_is_reserved_is_refused(tmp_path, tiny):
    holdout = tmp_path / "holdout.jsonl"
    holdout.write_text("\n".join(_shouted_chat(LINES)) + "\n")
    with pytest.raises(BadInput) as refused:
        _check(tmp_path, tiny, data=str(DATA / "gsm8k-prompt-completion.jsonl"), holdouts=[str(holdout)])
    assert refused.value.code == "no_usable_example" and "reserved holdout (48 examples)" in str(refused.value)


def test_an_eval_file_that_overlaps_training_entirely_is_refused(tmp_path, tiny):
    eval_file = tmp_path / "eval.jsonl"
    eval_file.write_text("\n".join(LINES[:5]) + "\n")
    with pytest.raises(BadInput) as refused:
        _check(tmp_path, tiny, data=str(DATA / "gsm8k-prompt-completion.jsonl"), eval=str(eval_file))
    assert refused.value.code == "eval_overlaps_train"


def test_a_file_without_one_usable_example_is_refused_naming_the_first_bad_line(tmp_path, tiny):
    data = tmp_path / "bad.jsonl"
    data.write_text('\n{"question": "no known fields"}\n{not json\n')
    with pytest.raises(BadInput) as refused:
        _check(tmp_path, tiny, data=str(data))
    assert refused.value.code == "no_usable_example" and "line 1: empty line" in refused.value.message
    assert refused.value.details["count"] == 3


def test_a_chat_template_that_cannot_render_the_examples_is_refused(tmp_path, tiny):
    # Templates like Mistral's refuse a system message; the data has one.
    model = tmp_path / "model"
    shutil.copytree(tiny / "model", model)
    (model / "chat_template.jinja").write_text(
        "{% if messages[0]['role'] == 'system' %}{{ raise_exception('System role not supported') }}{% endif %}"
        "{% for m in messages %}[{{ m['role'] }}] {{ m['content'] }}\n{% endfor %}")
    chat = [json.loads(line) for line in (DATA / "gsm8k-chat.jsonl").read_text().splitlines()[:6]]
    for row in chat:
        row["messages"].insert(0, {"role": "system", "content": "Answer with a number."})
    data = tmp_path / "chat.jsonl"
    data.write_text("".join(json.dumps(row) + "\n" for row in chat))
    with pytest.raises(BadInput) as refused:
        _check(tmp_path, model, data=str(data))
    assert refused.value.code == "template_cannot_render" and "System role not supported" in refused.value.message
