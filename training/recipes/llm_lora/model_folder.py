"""A base model folder in Hugging Face format: what makes it usable, and its identity.

Refusals (BadInput codes): not_a_model (no config.json, or one that is not a model config),
unsupported_architecture (no causal-LM class in transformers for it), no_tokenizer,
no_weights (no *.safetensors; pickled weights are never loaded), unreadable_weights
(a file safetensors cannot read: truncated, corrupt), weights_mismatch (the weights lack
tensors the architecture needs, which transformers would silently fill with random values).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from trainyard_recipe import BadInput, sha256_file

WEIGHT_SUFFIX = ".safetensors"


def snapshot(folder: Path) -> dict:
    """Every file's path, size and SHA-256, and one hash over that list: the folder's identity."""
    files = []
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        if path.is_symlink():
            raise BadInput(f"{path} is a symbolic link; a model folder must hold plain files", code="not_a_model")
        files.append({"path": path.relative_to(folder).as_posix(), "bytes": path.stat().st_size,
                      "sha256": sha256_file(path)})
    listing = "".join(f"{f['path']}\0{f['sha256']}\n" for f in files).encode("utf-8")
    return {"snapshotSha256": hashlib.sha256(listing).hexdigest(), "files": files}


def load_config(folder: Path):
    from transformers import AutoConfig

    config_path = folder / "config.json"
    if not config_path.is_file():
        raise BadInput(f"{folder} has no config.json, so it is not a Hugging Face model folder. Point at the folder "
                       "that holds config.json, the *.safetensors weights and the tokenizer files, or at a .gguf file.",
                       code="not_a_model")
    try:
        json.loads(config_path.read_text(encoding="utf-8"))
        return AutoConfig.from_pretrained(str(folder), local_files_only=True)
    except (ValueError, KeyError, OSError) as exc:
        raise BadInput(f"config.json in {folder} is not a model configuration transformers can read: {exc}",
                       code="not_a_model") from None


def check_architecture(config) -> str:
    from transformers import MODEL_FOR_CAUSAL_LM_MAPPING

    if type(config) not in MODEL_FOR_CAUSAL_LM_MAPPING:
        raise BadInput(f"model type {config.model_type!r} ({', '.join(config.architectures or []) or 'no architecture'}) "
                       "is not a causal language model transformers can fine-tune; use a decoder-only model "
                       "(Llama, Qwen, Mistral, GPT-2, SmolLM ...).", code="unsupported_architecture")
    return MODEL_FOR_CAUSAL_LM_MAPPING[type(config)].__name__


def check_tokenizer(folder: Path):
    from transformers import AutoTokenizer

    if not any((folder / name).is_file() for name in ("tokenizer.json", "tokenizer.model", "vocab.json")):
        raise BadInput(f"{folder} has no tokenizer (tokenizer.json, tokenizer.model or vocab.json). Copy the "
                       "tokenizer files of this model into the folder.", code="no_tokenizer")
    try:
        return AutoTokenizer.from_pretrained(str(folder), local_files_only=True)
    except Exception as exc:  # noqa: BLE001 - tokenizers raises many types for a broken file
        raise BadInput(f"the tokenizer in {folder} cannot be loaded: {exc}", code="no_tokenizer") from None


def _weight_keys(folder: Path) -> set[str]:
    from safetensors import safe_open

    files = sorted(folder.glob(f"*{WEIGHT_SUFFIX}"))
    if not files:
        pickled = [p.name for p in folder.glob("*.bin")] + [p.name for p in folder.glob("*.pt")]
        hint = f" ({', '.join(pickled)} are pickled weights, which are never loaded: convert them to safetensors)" \
            if pickled else ""
        raise BadInput(f"{folder} has no *.safetensors weights{hint}.", code="no_weights")
    keys: set[str] = set()
    for path in files:
        try:
            with safe_open(str(path), "pt") as handle:
                for key in handle.keys():
                    handle.get_slice(key).get_shape()
                    keys.add(key)
        except Exception as exc:  # noqa: BLE001 - SafetensorError for truncated or corrupt files
            raise BadInput(f"the weights file {path.name} cannot be read ({exc}); it may be truncated or damaged. "
                           "Copy it again from its source.", code="unreadable_weights") from None
    return keys


def check_weights(folder: Path, config) -> int:
    """The parameter count of the architecture, after checking the weights cover it."""
    import torch
    from transformers import AutoModelForCausalLM

    present = _weight_keys(folder)
    with torch.device("meta"):
        model = AutoModelForCausalLM.from_config(config)
    tied = set(getattr(model, "_tied_weights_keys", None) or {}) if getattr(config, "tie_word_embeddings", False) else set()
    prefix = getattr(model, "base_model_prefix", "") + "."
    missing = [key for key in model.state_dict() if key not in tied and key not in present
               and not (key.startswith(prefix) and key[len(prefix):] in present)]
    if missing:
        raise BadInput(f"the weights lack {len(missing)} tensor(s) the {type(model).__name__} architecture needs "
                       f"(e.g. {', '.join(missing[:3])}); they would start random. Use the model's complete weights.",
                       code="weights_mismatch", details={"missing": missing[:20]})
    return sum(p.numel() for p in model.parameters())


def resolve_model_dir(path: Path) -> Path:
    """An import_base output folder (holding model/) or a model folder itself."""
    return path / "model" if (path / "model" / "config.json").is_file() else path
