"""import_base: a model folder's identity, the GGUF round trip on a real model, and every
refusal on a real bad input."""

from __future__ import annotations

import json
import os
import re

import pytest

from conftest import make_job_context
from recipes.llm_lora.import_base import check_folder, run_import_base
from recipes.llm_lora.tests.support import TINY_GPT2, run
from trainyard_recipe import BadInput


def _readme_hashes() -> dict[str, str]:
    """The fixture README's table of sha256 per file, written when the fixture was made."""
    rows = re.findall(r"^\| (\S+) \| [\d,]+ \| ([0-9a-f]{64}) \|$", (TINY_GPT2 / "README.md").read_text(), re.M)
    return dict(rows)


def test_folder_is_copied_and_identified_by_the_sha256_of_every_file(tiny):
    base = json.loads((tiny / "base.json").read_text())
    assert {f["path"]: f["sha256"] for f in base["files"]} == _readme_hashes()
    assert base["source"] == "folder" and base["dequantizedFrom"] is None
    assert base["architecture"] == "GPT2LMHeadModel" and base["chatTemplate"] == "default"
    assert base["parameters"] == 102_640 and len(base["snapshotSha256"]) == 64


def test_gguf_is_dequantized_to_a_folder_that_loads_without_gguf_and_answers(smollm2):
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    base = smollm2.output_json("base.json")
    assert base["source"] == "gguf" and base["dequantizedFrom"] == "Q4_1" and base["name"] == "SmolLM2-135M-Instruct"
    assert base["architecture"] == "LlamaForCausalLM" and 134_000_000 < base["parameters"] < 135_000_000
    assert "dequantized from Q4_1" in smollm2.output("MODEL_CARD.md").read_text()
    assert {e["path"] for e in smollm2.manifest["files"]} >= {"model/model.safetensors", "model/config.json",
                                                             "model/chat_template.jinja", "base.json"}
    folder = smollm2.output("model")
    assert "quantization_config" not in json.loads((folder / "config.json").read_text())
    tokenizer = AutoTokenizer.from_pretrained(folder, local_files_only=True)
    model = AutoModelForCausalLM.from_pretrained(folder, dtype=torch.float32, local_files_only=True)
    ids = tokenizer.apply_chat_template([{"role": "user", "content": "What is the capital of France?"}],
                                        add_generation_prompt=True, return_tensors="pt", return_dict=True)["input_ids"]
    out = model.generate(ids, max_new_tokens=12, do_sample=False)
    assert "Paris" in tokenizer.decode(out[0, ids.shape[1]:])


def _refusal(path) -> str:
    with pytest.raises(BadInput) as refused:
        check_folder(path)
    return refused.value.code


def test_a_folder_without_config_is_not_a_model(model_copy):
    folder = model_copy()
    (folder / "config.json").unlink()
    assert _refusal(folder) == "not_a_model"


def test_a_config_of_a_model_that_is_not_a_causal_lm_is_unsupported(model_copy):
    folder = model_copy()
    (folder / "config.json").write_text(json.dumps({"model_type": "vit", "architectures": ["ViTModel"]}))
    assert _refusal(folder) == "unsupported_architecture"


def test_a_folder_without_tokenizer_files_is_refused(model_copy):
    folder = model_copy()
    for name in ("tokenizer.json", "vocab.json", "merges.txt"):
        (folder / name).unlink()
    assert _refusal(folder) == "no_tokenizer"


def test_truncated_weights_are_unreadable(model_copy):
    folder = model_copy()
    os.truncate(folder / "model.safetensors", 200_000)
    assert _refusal(folder) == "unreadable_weights"


def test_weights_missing_a_tensor_the_architecture_needs_are_refused(model_copy):
    from safetensors.torch import load_file, save_file

    folder = model_copy()
    tensors = load_file(folder / "model.safetensors")
    tensors.pop("transformer.h.0.mlp.c_fc.weight")
    save_file(tensors, folder / "model.safetensors", metadata={"format": "pt"})
    assert _refusal(folder) == "weights_mismatch"


def test_pickled_weights_only_are_refused(model_copy):
    folder = model_copy()
    (folder / "model.safetensors").rename(folder / "pytorch_model.bin")
    assert _refusal(folder) == "no_weights"


def test_a_truncated_gguf_is_refused_by_the_job_with_exit_2(tmp_path, smollm2_gguf):
    cut = tmp_path / "cut.gguf"
    with open(smollm2_gguf, "rb") as src:
        cut.write_bytes(src.read(5_000_000))
    result = run("import_base", {"source": str(cut)}, tmp_path)
    assert result.returncode == 2, result.describe()
    assert result.report["error"]["code"] == "gguf_unreadable"
    assert "truncated" in result.report["error"]["message"]


def _blobs(tmp_path) -> list[dict]:
    """The tiny GPT-2's files as a browser uploads a folder: blobs named by hash, no extensions,
    each with its path under the folder's name."""
    store = tmp_path / "blobs"
    store.mkdir()
    files = []
    for index, path in enumerate(sorted(p for p in TINY_GPT2.iterdir() if p.is_file())):
        blob = store / f"{index:02d}ab{index:02d}cd"
        blob.write_bytes(path.read_bytes())
        files.append({"path": f"{TINY_GPT2.name}/{path.name}", "file": str(blob)})
    return files


def test_a_folder_uploaded_file_by_file_imports_with_the_same_identity_as_the_folder(tmp_path, tiny):
    ctx = make_job_context(tmp_path, cpus=2)
    run_import_base(ctx, {"files": _blobs(tmp_path)})
    base = json.loads((ctx.output_dir / "base.json").read_text())
    folder = json.loads((tiny / "base.json").read_text())
    assert base["snapshotSha256"] == folder["snapshotSha256"] and base["files"] == folder["files"]
    assert base["name"] == TINY_GPT2.name and base["source"] == "folder"
    assert not [p for p in (ctx.output_dir / "model").rglob("*") if p.is_symlink()]


@pytest.mark.parametrize("bad", ["../config.json", "/etc/config.json", "a/../../config.json", "./config.json"])
def test_an_uploaded_path_outside_the_folder_is_refused(tmp_path, bad):
    files = _blobs(tmp_path)
    files[0]["path"] = bad
    with pytest.raises(BadInput) as refused:
        run_import_base(make_job_context(tmp_path, cpus=2), {"files": files})
    assert refused.value.code == "invalid_input" and "relative path" in str(refused.value)


def test_a_source_and_files_together_are_refused(tmp_path):
    with pytest.raises(BadInput) as refused:
        run_import_base(make_job_context(tmp_path, cpus=2), {"source": str(TINY_GPT2), "files": _blobs(tmp_path)})
    assert refused.value.code == "invalid_input" and "exactly one" in str(refused.value)


def test_a_file_that_is_not_gguf_is_not_a_model_whatever_its_name(tmp_path):
    blob = tmp_path / "0123abcd"
    blob.write_bytes(b"PK\x03\x04 not a GGUF")
    with pytest.raises(BadInput) as refused:
        run_import_base(make_job_context(tmp_path, cpus=2), {"source": str(blob)})
    assert refused.value.code == "not_a_model" and "GGUF" in str(refused.value)
