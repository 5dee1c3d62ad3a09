"""Job holdout_compare: two adapters of the tiny GPT-2 (one from its export archive) on a
holdout of GSM8K problems, three of them training lines that must be left out; each version's
value is the trusted score job's on exactly the kept examples; refusals."""

from __future__ import annotations

import gzip
import hashlib
import json
import shutil

import pytest

from evaluation_lm.tests.conftest import done, train_adapter
from evaluation_lm.tests.support import DATA, run

COMPARE = {"device": "cpu", "maxLength": 256, "resamples": 500}
TRAINING_LINES = (DATA / "gsm8k-prompt-completion.jsonl").read_text().splitlines()


@pytest.fixture(scope="module")
def trained_b(tmp_path_factory, tiny, tiny_data):
    return train_adapter(tmp_path_factory.mktemp("train-b"), tiny, tiny_data, learning_rate=0.01, seed=1, steps=2)


@pytest.fixture(scope="module")
def exported_b(tmp_path_factory, tiny, tiny_data, trained_b):
    receipt = done(run("evaluation_lm", "score", {"model": str(tiny), "adapter": str(trained_b), "data": str(tiny_data),
                                                  "device": "cpu", "maxLength": 64, "generations": 0},
                       tmp_path_factory.mktemp("score-b")))
    return done(run("llm_lora", "export", {"model": str(tiny), "adapter": str(trained_b), "receipt": str(receipt),
                                           "checks": str(tiny_data), "name": "b"}, tmp_path_factory.mktemp("export-b")))


def _holdout_examples(root, lines: list[str]):
    holdout = root / "holdout.jsonl"
    holdout.write_text("\n".join(lines) + "\n")
    return done(run("llm_lora", "holdout_examples", {"data": str(holdout)}, root / "examples"))


@pytest.fixture(scope="module")
def holdout(tmp_path_factory):
    # 16 problems no training file has, and 3 lines of the training file (upper-cased: the same prompts).
    trained = [json.dumps({k: v.upper() for k, v in json.loads(line).items()}) for line in TRAINING_LINES[:3]]
    return _holdout_examples(tmp_path_factory.mktemp("holdout"), [*(DATA / "gsm8k-chat.jsonl").read_text().splitlines(), *trained])


def _versions(tiny_data, trained, exported_b):
    prompts = str(tiny_data / "trained_prompts.txt")
    weights = hashlib.sha256((trained / "adapter" / "adapter_model.safetensors").read_bytes()).hexdigest()
    return [{"version": 1, "adapter": str(trained), "adapterSha256": weights, "trainedPrompts": prompts},
            {"version": 2, "adapter": str(exported_b / "export.tar.gz"),
             "adapterSha256": json.loads((exported_b / "export.json").read_text())["adapterSha256"], "trainedPrompts": prompts}]


def test_holdout_examples_lists_each_prompt_hash_line_for_line(holdout):
    report = json.loads((holdout / "holdout_examples.json").read_text())
    hashes = (holdout / "eval_prompts.txt").read_text().split()
    assert report["examples"] == len(hashes) == len((holdout / "eval.jsonl").read_text().splitlines()) == 19
    assert report["formats"] == ["chat", "prompt_completion"] and report["promptsFile"] == "eval_prompts.txt"


def test_compares_versions_on_the_examples_none_learnt_from_as_the_score_job_scores_them(
        tmp_path, tiny, tiny_data, trained, exported_b, holdout):
    result = run("evaluation_lm", "holdout_compare", {"model": str(tiny), "data": str(holdout),
                                                      "versions": _versions(tiny_data, trained, exported_b), **COMPARE},
                 tmp_path / "compare")
    out = done(result) / "holdout_compare.json"
    compared = json.loads(out.read_text())
    assert compared["excluded"] == {"total": 3, "byVersion": {"1": 3, "2": 3}, "noAnswerLeft": 0}
    assert compared["examples"] == 16 and compared["metric"] == "mean_nll_per_answer_token"
    first, second = (r["value"] for r in compared["results"])
    difference = compared["difference"]
    assert difference["estimate"] == pytest.approx(second - first)
    assert difference["low"] <= difference["estimate"] <= difference["high"] and difference["of"] == [1, 2]

    # The trusted score job on exactly the 16 kept examples gives each version's value: the
    # same masking and tokens, and the base restored between the two adapters.
    kept = tmp_path / "kept"
    kept.mkdir()
    (kept / "eval.jsonl").write_text("\n".join((holdout / "eval.jsonl").read_text().splitlines()[:16]) + "\n")
    unpacked = tmp_path / "b"
    shutil.unpack_archive(exported_b / "export.tar.gz", unpacked)
    for value, adapter in ((first, trained), (second, next(unpacked.iterdir()) / "adapter")):
        scored = done(run("evaluation_lm", "score", {"model": str(tiny), "adapter": str(adapter), "data": str(kept),
                                                     "device": "cpu", "maxLength": 256, "generations": 0},
                          tmp_path / f"score-{adapter.parent.name}"))
        receipt = json.loads((scored / "receipt.json").read_text())
        assert receipt["examples"] == 16 and receipt["adapter"]["meanNll"] == pytest.approx(value, rel=1e-5)


def test_a_holdout_the_versions_learnt_from_is_refused(tmp_path, tiny, tiny_data, trained, exported_b):
    learnt = _holdout_examples(tmp_path, TRAINING_LINES[:10])
    result = run("evaluation_lm", "holdout_compare", {"model": str(tiny), "data": str(learnt),
                                                      "versions": _versions(tiny_data, trained, exported_b), **COMPARE},
                 tmp_path / "compare")
    assert result.returncode != 0 and result.report["error"]["code"] == "too_few_examples"
    assert "only 0 holdout examples are unseen by every version" in result.report["error"]["message"]


def test_a_damaged_export_another_adapter_and_a_single_version_are_refused(tmp_path, tiny, tiny_data, trained, exported_b,
                                                                         holdout):
    damaged = tmp_path / "export.tar.gz"
    damaged.write_bytes(gzip.compress(b"not a tar"))
    versions = _versions(tiny_data, trained, exported_b)
    for name, change in (("damaged", {"adapter": str(damaged)}), ("other", {"adapterSha256": versions[0]["adapterSha256"]})):
        result = run("evaluation_lm", "holdout_compare", {"model": str(tiny), "data": str(holdout),
                                                          "versions": [versions[0], {**versions[1], **change}], **COMPARE},
                     tmp_path / name)
        assert result.returncode != 0 and result.report["error"]["code"] == "export_invalid", name
    one = run("evaluation_lm", "holdout_compare", {"model": str(tiny), "data": str(holdout), "versions": versions[:1],
                                                   **COMPARE}, tmp_path / "one")
    assert one.returncode != 0 and one.report["error"]["code"] == "invalid_input"
