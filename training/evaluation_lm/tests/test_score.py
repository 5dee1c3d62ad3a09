"""Job score on the tiny GPT-2's adapter: base then adapter on the same answer tokens, a
receipt that names its evaluator and contract, reproduced by a second run; bad inputs refused."""

from __future__ import annotations

import json
import math
import shutil

import pytest

from evaluation_lm import RECIPE_NAME, RECIPE_VERSION
from evaluation_lm.identity import evaluation_contract
from evaluation_lm.tests.support import SCORE, run


def test_score_scores_base_then_adapter_on_the_same_answer_tokens(scored, tiny_data):
    receipt = scored.output_json("receipt.json")
    assert receipt["base"]["tokens"] == receipt["adapter"]["tokens"] > 0
    # prompts longer than maxLength leave no answer token to score: counted, not silently lost
    assert receipt["examples"] + receipt["droppedNoAnswerLeft"] == len((tiny_data / "eval.jsonl").read_text().splitlines())
    assert receipt["examples"] >= 2
    for side in ("base", "adapter"):
        assert receipt[side]["perplexity"] == pytest.approx(math.exp(receipt[side]["meanNll"]))
    assert receipt["betterThanBase"] == (receipt["adapter"]["meanNll"] < receipt["base"]["meanNll"])
    assert receipt["base"]["meanNll"] != receipt["adapter"]["meanNll"]
    assert len(receipt["generations"]) == 2 and receipt["exactMatch"]["examples"] == 2
    per_example = scored.output_json("per_example.json")
    for side in ("base", "adapter"):
        assert sum(e["tokens"] for e in per_example[side]) == receipt[side]["tokens"]
        assert sum(e["nll"] for e in per_example[side]) / receipt[side]["tokens"] == pytest.approx(receipt[side]["meanNll"])
    assert scored.report["metrics"]["betterThanBase"] == receipt["betterThanBase"]


def test_the_receipt_names_its_evaluator_and_the_contract_it_is_comparable_under(scored, tiny, tiny_data, trained):
    receipt = scored.output_json("receipt.json")
    evaluator = receipt["evaluator"]
    assert (evaluator["recipe"], evaluator["recipeVersion"]) == (RECIPE_NAME, RECIPE_VERSION)
    assert {"template.py", "scoring.py", "score.py", "requirements.txt"} <= set(evaluator["files"])
    contract = receipt["evaluationContract"]
    base = json.loads((tiny / "base.json").read_text())
    assert contract["baseSnapshotSha256"] == base["snapshotSha256"]
    assert contract["evalSetSha256"] == receipt["evalSetSha256"]
    assert contract["evaluatorVersion"] == evaluator["version"] and contract["maxLength"] == SCORE["maxLength"]
    same, sha = evaluation_contract(eval_sha=contract["evalSetSha256"], base_sha=contract["baseSnapshotSha256"],
                                    max_length=contract["maxLength"], template_sha=contract["chatTemplateSha256"],
                                    evaluator_version=contract["evaluatorVersion"])
    assert same == contract and sha == receipt["contractSha256"]
    _, other = evaluation_contract(eval_sha=contract["evalSetSha256"], base_sha=contract["baseSnapshotSha256"],
                                   max_length=contract["maxLength"] + 1, template_sha=contract["chatTemplateSha256"],
                                   evaluator_version=contract["evaluatorVersion"])
    assert other != sha  # another maxLength scores other tokens: not comparable


def test_a_second_run_reproduces_the_receipt(scored, tmp_path, tiny, tiny_data, trained):
    again = run("evaluation_lm", "score", {"model": str(tiny), "adapter": str(trained), "data": str(tiny_data),
                                           **SCORE}, tmp_path)
    assert again.returncode == 0, again.describe()
    assert again.output_json("receipt.json") == scored.output_json("receipt.json")
    assert again.output_json("per_example.json") == scored.output_json("per_example.json")


def test_score_generates_only_what_a_small_evaluation_set_holds(tmp_path, tiny, tiny_data, trained):
    held_out = len((tiny_data / "eval.jsonl").read_text().splitlines())
    result = run("evaluation_lm", "score", {"model": str(tiny), "adapter": str(trained), "data": str(tiny_data),
                                            **SCORE, "generations": held_out + 5, "answerExamples": held_out + 5},
                 tmp_path)
    assert result.returncode == 0, result.describe()
    receipt = result.output_json("receipt.json")
    assert len(receipt["generations"]) == held_out and receipt["exactMatch"]["examples"] == held_out


@pytest.mark.parametrize("change, code", [
    ({"answerPattern": "#### \\S+"}, "invalid_input"),  # no group around the answer
    ({"answerPattern": "(unclosed"}, "invalid_input"),
    ({"maxLength": 8}, "invalid_input"),
    ({"device": "mps"}, "device_unavailable"),  # Linux never has Metal: refused, not replaced by cpu
    ({"model": "MODEL_FOLDER_ONLY"}, "missing_input"),  # a bare folder: no base.json, no base identity
    ({"adapter": "BASE"}, "missing_input"),
])
def test_bad_inputs_are_refused_before_scoring(tmp_path, tiny, tiny_data, trained, change, code):
    paths = {"MODEL_FOLDER_ONLY": str(tiny / "model"), "BASE": str(tiny)}
    job_input = {"model": str(tiny), "adapter": str(trained), "data": str(tiny_data), **SCORE}
    job_input.update({k: paths.get(v, v) for k, v in change.items()})
    result = run("evaluation_lm", "score", job_input, tmp_path)
    assert result.returncode != 0 and result.report["error"]["code"] == code, result.describe()
    assert not (result.output_dir / "receipt.json").exists()


def test_an_evaluation_set_without_an_answer_within_max_length_is_refused(tmp_path, tiny, tiny_data, trained):
    data = tmp_path / "data"
    shutil.copytree(tiny_data, data)
    long_prompt = {"messages": [{"role": "user", "content": "word " * 200}, {"role": "assistant", "content": "4"}]}
    (data / "eval.jsonl").write_text(json.dumps(long_prompt) + "\n")
    result = run("evaluation_lm", "score", {"model": str(tiny), "adapter": str(trained), "data": str(data), **SCORE},
                 tmp_path / "job")
    assert result.returncode != 0 and result.report["error"]["code"] == "no_usable_example", result.describe()
