"""Job import_base: a local model folder or GGUF file -> a checked, hashed model folder.

The input is either `source` (a folder, a GGUF file, or the blob of an uploaded GGUF, which
has no .gguf name: GGUF is recognised by its magic bytes) or `files` (a folder uploaded file
by file: each {path inside the folder, blob}; it is assembled in the work folder first).
Output: model/ (the files; a GGUF becomes fp32 safetensors), base.json (name, source kind,
architecture, parameters, snapshot hash of model/, source hash, dequantizedFrom, chat
template source) and MODEL_CARD.md.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path, PurePosixPath

from trainyard_recipe import BadInput, JobContext, sha256_file
from trainyard_recipe.atomic import write_json_atomic
from trainyard_recipe.events import phase

from .fields import existing_path
from .gguf_import import dequantize
from .model_folder import check_architecture, check_tokenizer, check_weights, load_config, snapshot
from evaluation_lm.template import template_source

# Files a model folder may hold that training and export need; anything else is left behind.
KEPT = ("config.json", "generation_config.json", "tokenizer.json", "tokenizer_config.json", "tokenizer.model",
        "special_tokens_map.json", "added_tokens.json", "vocab.json", "merges.txt", "chat_template.jinja",
        "chat_template.json", "model.safetensors.index.json")
GGUF_MAGIC = b"GGUF"


def is_gguf(path: Path) -> bool:
    """A GGUF file starts with b"GGUF", whatever it is named (an uploaded blob has no extension)."""
    if not path.is_file():
        return False
    with open(path, "rb") as handle:
        return handle.read(len(GGUF_MAGIC)) == GGUF_MAGIC


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


def _relative(value: object, index: int) -> PurePosixPath:
    if not isinstance(value, str) or not value or value.startswith("/") or "\\" in value \
            or any(part in ("", ".", "..") for part in value.split("/")):
        raise BadInput(f"files[{index}].path must be a relative path inside the model folder (no '..', not "
                       f"absolute), got {value!r}", code="invalid_input", details={"field": "files"})
    return PurePosixPath(value)


def assemble_upload(files: object, dest: Path) -> Path:
    """The uploaded files linked into their places under dest: the model folder to import.
    When every path starts with the same folder (a browser sends "MyModel/config.json"), that
    folder is the model folder."""
    if not isinstance(files, list) or not files:
        raise BadInput("input field 'files' must be a non-empty list of {path, file}", code="invalid_input",
                       details={"field": "files"})
    placed: dict[PurePosixPath, Path] = {}
    for index, item in enumerate(files):
        if not isinstance(item, dict) or set(item) != {"path", "file"}:
            raise BadInput(f"files[{index}] must be {{path, file}}", code="invalid_input", details={"field": "files"})
        rel = _relative(item["path"], index)
        blob = existing_path(item, "file")
        if rel in placed:
            raise BadInput(f"files lists {rel} twice", code="invalid_input", details={"field": "files"})
        if not blob.is_file():
            raise BadInput(f"files[{index}].file ({rel}) is not a file", code="invalid_input",
                           details={"field": "files"})
        placed[rel] = blob
    for rel, blob in placed.items():
        target = dest.joinpath(*rel.parts)
        target.parent.mkdir(parents=True, exist_ok=True)
        os.symlink(blob.resolve(), target)  # read through, never copied twice; model/ gets real copies
    tops = {rel.parts[0] for rel in placed if len(rel.parts) > 1}
    if not (dest / "config.json").exists() and len(tops) == 1 and all(len(r.parts) > 1 for r in placed):
        return dest / tops.pop()
    return dest


def _source(ctx: JobContext, job_input: dict) -> tuple[Path, str]:
    """(the file or folder to import, its default display name)."""
    has_source, has_files = job_input.get("source") not in (None, ""), job_input.get("files") is not None
    if has_source == has_files:
        raise BadInput("give exactly one of 'source' (a model folder or GGUF file) or 'files' (an uploaded "
                       "folder)", code="missing_field" if not has_source else "invalid_input",
                       details={"fields": ["source", "files"]})
    if has_source:
        source = existing_path(job_input, "source")
        return source, source.stem if source.is_file() else source.name
    folder = assemble_upload(job_input["files"], ctx.work_dir / "upload")
    return folder, folder.name if folder != ctx.work_dir / "upload" else "model"


def _gguf_path(ctx: JobContext, source: Path) -> Path:
    """The GGUF under a .gguf name in a folder of its own: the loader looks beside it for
    tokenizer files, and a blob store holds other blobs."""
    if source.suffix.lower() == ".gguf":
        return source
    linked = ctx.work_dir / "gguf" / "model.gguf"
    linked.parent.mkdir(parents=True, exist_ok=True)
    os.symlink(source.resolve(), linked)
    return linked


def run_import_base(ctx: JobContext, job_input: dict) -> dict:
    import torch

    torch.set_num_threads(ctx.cpus)
    source, default_name = _source(ctx, job_input)
    entries = list(source.iterdir()) if source.is_dir() else []
    if len(entries) == 1 and is_gguf(entries[0]):  # a folder (upload) holding one GGUF file
        source, default_name = entries[0], entries[0].stem
    model_dir = ctx.output_dir / "model"
    phase(ctx, "preparing_data", step="import_base")
    if is_gguf(source):
        kind, source_sha = "gguf", sha256_file(source)
        info = dequantize(_gguf_path(ctx, source), model_dir)
        info.update(check_folder(model_dir))  # the saved folder must pass the same checks as any other
    elif source.is_dir():
        kind, source_sha, info = "folder", None, check_folder(source)
        _copy_folder(source, model_dir)
        info["dequantizedFrom"] = None
    else:
        raise BadInput(f"{source} is neither a model folder nor a GGUF file (its first bytes are not b'GGUF')",
                       code="not_a_model")
    snap = snapshot(model_dir)
    base = {
        "version": 1, "name": job_input.get("name") or default_name,
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
