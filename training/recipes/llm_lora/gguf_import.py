"""A GGUF file (llama.cpp, Ollama) -> a Hugging Face folder of fp32 weights.

transformers' GGUF loader dequantizes while loading, but refuses to save a model it loaded
from GGUF ("quantized with gguf and is not serializable"), so the model is rebuilt from its
config without quantization_config and given the loaded state dict (all keys match).
"""

from __future__ import annotations

from pathlib import Path

from trainyard_recipe import BadInput


def quant_type(path: Path) -> str:
    """The GGUF's file type, e.g. 'Q4_1'; BadInput(gguf_unreadable) when it is not a readable GGUF."""
    import gguf

    try:
        reader = gguf.GGUFReader(str(path))
    except Exception as exc:  # noqa: BLE001 - ValueError, struct errors, mmap errors for a cut file
        raise BadInput(f"{path.name} is not a readable GGUF file ({exc}); it may be truncated. Copy it again.",
                       code="gguf_unreadable") from None
    field = reader.fields.get("general.file_type")
    if field is None:
        kinds = sorted({tensor.tensor_type.name for tensor in reader.tensors})
        return "/".join(kinds)
    value = int(field.parts[field.data[0]][0])
    try:
        return gguf.LlamaFileType(value).name.removeprefix("MOSTLY_")
    except ValueError:
        return f"file type {value}"


def dequantize(path: Path, out_dir: Path) -> dict:
    """Load and dequantize `path`, save model + tokenizer into out_dir; return what happened."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()
    source_quant = quant_type(path)
    folder, name = str(path.parent), path.name
    try:
        tokenizer = AutoTokenizer.from_pretrained(folder, gguf_file=name)
        loaded = AutoModelForCausalLM.from_pretrained(folder, gguf_file=name, dtype=torch.float32)
    except Exception as exc:  # noqa: BLE001 - unsupported architecture / quantization raise ValueError, KeyError...
        raise BadInput(f"transformers cannot dequantize {name} ({type(exc).__name__}: {exc}). Its architecture or "
                       "quantization type may not be supported by the GGUF loader; use the model in Hugging Face "
                       "format (safetensors) instead.", code="gguf_unsupported") from None
    config_dict = loaded.config.to_dict()
    config_dict.pop("quantization_config", None)
    config = type(loaded.config).from_dict(config_dict)
    model = AutoModelForCausalLM.from_config(config, dtype=torch.float32)
    model.load_state_dict(loaded.state_dict())
    model.config.architectures = [type(model).__name__]
    out_dir.mkdir(parents=True, exist_ok=True)
    model.save_pretrained(str(out_dir))
    tokenizer.save_pretrained(str(out_dir))
    return {"dequantizedFrom": source_quant, "architecture": type(model).__name__,
            "parameters": sum(p.numel() for p in model.parameters())}
