"""Job import_base: a local model folder or GGUF file -> a checked, hashed model folder.

Output: model/ (the files; a GGUF becomes fp32 safetensors), base.json (name, source kind,
architecture, parameters, snapshot hash of model/, source hash, dequantizedFrom, chat
template source) and MODEL_CARD.md.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from trainyard_recipe import BadInput, JobContext, requires, sha256_file
from trainyard_recipe.atomic import write_json_atomic
from trainyard_recipe.events import phase

from .fields import existing_path
from .gguf_import import dequantize
from .model_folder import check_architecture, check_tokenizer, check_weights, load_config, snapshot
from .template import template_source

# Files a model folder may hold that training and export need; anything else is left behind.
KEPT = ("config.json", "generation_config.json", "tokenizer.json", "tokenizer_config.json", "tokenizer.model",
        "special_tokens_map.json", "added_tokens.json", "vocab.json", "merges.txt", "chat_template.jinja",
        "chat_template.json", "model.safetensors.index.json")


def check_folder(folder: Path) -> dict:
    """Every refusal of model_folder, in the order a user would fix them."""
    config = load_config(folder)
    architecture = check_architecture(config)
    check_tokenizer(folder)
    parameters = check_weights(folder, config)
    return {"architecture": architecture, "parameters": parameters}


def _copy_folder(source: Path, dest: Path) -> None:
    dest.mkdir(parents=True)
    for path in sorted(source.iterdir()):
        if path.is_file() and (path.name in KEPT or path.suffix == ".safetensors"):
            shutil.copy2(path, dest / path.name)


@requires("source")
def run_import_base(ctx: JobContext, job_input: dict) -> dict:
    import torch

    torch.set_num_threads(ctx.cpus)
    source = existing_path(job_input, "source")
    model_dir = ctx.output_dir / "model"
    phase(ctx, "preparing_data", step="import_base")
    if source.is_file() and source.suffix.lower() == ".gguf":
        kind, source_sha = "gguf", sha256_file(source)
        info = dequantize(source, model_dir)
        info.update(check_folder(model_dir))  # the saved folder must pass the same checks as any other
    elif source.is_dir():
        kind, source_sha, info = "folder", None, check_folder(source)
        _copy_folder(source, model_dir)
        info["dequantizedFrom"] = None
    else:
        raise BadInput(f"{source} is neither a model folder nor a .gguf file", code="not_a_model")
    snap = snapshot(model_dir)
    base = {
        "version": 1, "name": job_input.get("name") or (source.stem if kind == "gguf" else source.name),
        "source": kind, "sourceSha256": source_sha or snap["snapshotSha256"], "snapshotSha256": snap["snapshotSha256"],
        "architecture": info["architecture"], "parameters": info["parameters"],
        "dequantizedFrom": info["dequantizedFrom"], "chatTemplate": template_source(model_dir),
        "files": snap["files"],
    }
    write_json_atomic(ctx.output_dir / "base.json", base)
    template = "the model's own" if base["chatTemplate"] == "model" else "Trainyard default (the model has none)"
    provenance = (f"dequantized from {base['dequantizedFrom']} (GGUF sha256 {source_sha}) to fp32"
                  if kind == "gguf" else "copied from a Hugging Face folder as is")
    (ctx.output_dir / "MODEL_CARD.md").write_text(
        f"# Base model {base['name']}\n\n- architecture: {base['architecture']}, {base['parameters']:,} parameters\n"
        f"- weights: {provenance}\n- snapshot sha256 (every file of model/): {base['snapshotSha256']}\n"
        f"- chat template: {template}\n",
        encoding="utf-8")
    return {"parameters": base["parameters"], "dequantizedFrom": base["dequantizedFrom"]}
