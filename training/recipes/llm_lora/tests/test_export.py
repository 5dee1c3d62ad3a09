"""export, generate and merge of the tiny GPT-2's adapter: the archive reloads in a fresh
process and reproduces its receipt, its generate.py answers like the generate job, and the
merged model computes what base + adapter compute."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from conftest import recipe_python
from recipes.llm_lora.tests.support import RECIPE, TINY_GPT2, run

PROMPT = "Tom has 3 apples and buys 2 more. How many apples does he have?"


@pytest.fixture(scope="module")
def exported(tmp_path_factory, tiny, tiny_data, trained, evaluated):
    result = run("export", {"model": str(tiny), "adapter": str(trained.output_dir),
                            "receipt": str(evaluated.output_dir), "checks": str(tiny_data), "name": "GSM8K tiny"},
                 tmp_path_factory.mktemp("export"))
    assert result.returncode == 0, result.describe()
    return result


@pytest.fixture(scope="module")
def unpacked(tmp_path_factory, exported):
    """The archive unpacked by the verify.py it ships, as a user would."""
    dest = tmp_path_factory.mktemp("unpacked") / "export"
    summary = exported.output_json("export.json")
    archive = exported.output("export.tar.gz")
    shipped_verify = tmp_path_factory.mktemp("verify") / "verify.py"
    subprocess.run(["tar", "xzf", str(archive), "-C", str(shipped_verify.parent), f"{summary['folder']}/verify.py"],
                   check=True)
    proc = subprocess.run(["python3", str(shipped_verify.parent / summary["folder"] / "verify.py"), "--extract",
                           str(archive), str(dest)], capture_output=True, text=True)
    assert proc.returncode == 0 and json.loads(proc.stdout)["verified"] is True, proc.stdout + proc.stderr
    return dest


def test_export_reloads_in_a_fresh_process_and_reproduces_the_receipt(exported, evaluated, trained, tiny):
    receipt = evaluated.output_json("receipt.json")
    verification = exported.output_json("verification.json")
    assert verification["verified"] is True and verification["tolerance"] == 1e-4
    assert verification["receiptMeanNll"] == receipt["adapter"]["meanNll"]
    assert verification["absoluteDifference"] <= 1e-4 and verification["tokens"] == receipt["adapter"]["tokens"]
    summary = exported.output_json("export.json")
    base = json.loads((tiny / "base.json").read_text())
    assert summary["base"] == {"name": base["name"], "snapshotSha256": base["snapshotSha256"], "source": "folder",
                               "dequantizedFrom": None}
    assert summary["folder"] == f"GSM8K-tiny-{summary['adapterSha256'][:12]}"
    assert summary["fileName"] == summary["folder"] + ".tar.gz" and summary["betterThanBase"] == receipt["betterThanBase"]
    listed = {item["path"] for item in exported.manifest["files"]}
    assert {"export.tar.gz", "export.json", "verification.json"} <= listed


def test_the_archive_holds_adapter_tokenizer_identity_receipts_and_no_base_weights(unpacked, trained, evaluated):
    files = {p.relative_to(unpacked).as_posix() for p in unpacked.rglob("*") if p.is_file()}
    assert {"adapter/adapter_model.safetensors", "adapter/adapter_config.json", "tokenizer/tokenizer.json",
            "tokenizer/chat_template.jinja", "base.json", "receipt.json", "training.json", "eval.jsonl",
            "environment.lock", "requirements.txt", "MODEL_CARD.md", "generate.py", "verify.py",
            "manifest.json"} <= files
    assert not [f for f in files if f.startswith("model") and f.endswith(".safetensors")]
    assert (unpacked / "adapter/adapter_model.safetensors").read_bytes() == \
        trained.output("adapter/adapter_model.safetensors").read_bytes()
    lock = (unpacked / "environment.lock").read_text()
    assert "torch==2.13.0" in lock and "peft==0.21.2" in lock and "transformers==5.24.0" in lock
    card = (unpacked / "MODEL_CARD.md").read_text()
    receipt = evaluated.output_json("receipt.json")
    assert f"{receipt['base']['meanNll']:.4f} | {receipt['adapter']['meanNll']:.4f}" in card
    assert "exact match" in card and json.loads((unpacked / "base.json").read_text())["snapshotSha256"] in card


def test_export_is_refused_when_the_archive_does_not_reproduce_its_receipt(tmp_path, tiny, tiny_data, trained,
                                                                          evaluated):
    receipt = evaluated.output_json("receipt.json")
    receipt["adapter"]["meanNll"] += 0.01  # a receipt of another adapter on the same examples
    forged = tmp_path / "receipt.json"
    forged.write_text(json.dumps(receipt))
    result = run("export", {"model": str(tiny), "adapter": str(trained.output_dir), "receipt": str(forged),
                            "checks": str(tiny_data)}, tmp_path)
    assert result.returncode == 2, result.describe()
    assert result.report["error"]["code"] == "export_not_reproducible"
    assert "does not reproduce" in result.report["error"]["message"]


def test_generate_answers_with_base_and_adapter_and_the_exported_generate_py_matches(tmp_path, tiny, trained,
                                                                                    unpacked):
    result = run("generate", {"model": str(tiny), "adapter": str(trained.output_dir), "prompt": PROMPT,
                              "maxNewTokens": 8, "device": "cpu"}, tmp_path)
    assert result.returncode == 0, result.describe()
    answer = result.output_json("answer.json")
    # base and adapter may answer alike: 4 steps on a random GPT-2 move its logits, not always its argmax
    assert answer["prompt"] == PROMPT and answer["seconds"] > 0
    assert isinstance(answer["base"], str) and isinstance(answer["adapter"], str)
    assert answer["baseModel"]["snapshotSha256"] == json.loads((tiny / "base.json").read_text())["snapshotSha256"]
    proc = subprocess.run([str(recipe_python(RECIPE)), str(unpacked / "generate.py"), str(tiny / "model"), PROMPT,
                           "--max-new-tokens", "8"], capture_output=True, text=True, env={"HF_HUB_OFFLINE": "1"})
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout == answer["adapter"] + "\n"


def test_generate_py_refuses_a_base_folder_that_is_not_the_one_base_json_names(tmp_path, tiny, unpacked):
    other = tmp_path / "other-base"
    shutil.copytree(tiny / "model", other)
    (other / "config.json").chmod(0o644)
    (other / "config.json").write_text((other / "config.json").read_text() + "\n")
    proc = subprocess.run([str(recipe_python(RECIPE)), str(unpacked / "generate.py"), str(other), PROMPT],
                          capture_output=True, text=True)
    assert proc.returncode == 1 and "config.json: content differs" in proc.stderr


def test_merge_writes_a_model_whose_logits_equal_base_plus_adapter(tmp_path, tiny, trained):
    import torch
    from peft import PeftModel
    from transformers import AutoModelForCausalLM

    from recipes.llm_lora.import_base import check_folder

    result = run("merge", {"model": str(tiny), "adapter": str(trained.output_dir)}, tmp_path)
    assert result.returncode == 0, result.describe()
    merged_json = result.output_json("merged.json")
    base = json.loads((tiny / "base.json").read_text())
    assert merged_json["mergedFrom"]["baseSnapshotSha256"] == base["snapshotSha256"]
    assert merged_json["parameters"] == base["parameters"] and merged_json["architecture"] == "GPT2LMHeadModel"
    assert check_folder(result.output("model"))["parameters"] == base["parameters"]  # importable as a new base
    ids = torch.tensor([[464, 3290, 318, 257, 1332, 286, 262, 1110]])
    merged = AutoModelForCausalLM.from_pretrained(result.output("model"), dtype=torch.float32).eval()
    adapted = PeftModel.from_pretrained(AutoModelForCausalLM.from_pretrained(TINY_GPT2, dtype=torch.float32),
                                        trained.output("adapter")).eval()
    with torch.no_grad():
        expected, got = adapted(ids).logits, merged(ids).logits
    plain = AutoModelForCausalLM.from_pretrained(TINY_GPT2, dtype=torch.float32).eval()
    with torch.no_grad():
        assert (plain(ids).logits - expected).abs().max() > 1e-4  # the adapter changes the output
    assert (got - expected).abs().max() < 1e-5
