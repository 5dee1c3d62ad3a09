"""Memory a LoRA training step needs, from the model's shape: an estimate shown before
training and checked against the device (the preflight also measures the real peak).

weights: every parameter at its dtype size (fp32 here: training loads fp32 weights).
lora: trainable parameters x 16 bytes (fp32 weight, gradient, AdamW's two moments).
activations: per layer batch*length*hidden*(34 + 5*heads*length/hidden) bytes at 16-bit
(Korthikanti et al. 2022, "Reducing Activation Recomputation"), doubled for fp32, plus the
logits (batch*length*vocab fp32, kept for the loss and its gradient: x3).
"""

from __future__ import annotations


def estimate(config, parameters: int, trainable: int, batch: int, length: int, bf16: bool) -> dict:
    hidden = getattr(config, "hidden_size", None) or getattr(config, "n_embd")
    layers = getattr(config, "num_hidden_layers", None) or getattr(config, "n_layer")
    heads = getattr(config, "num_attention_heads", None) or getattr(config, "n_head")
    vocab = config.vocab_size
    scale = 1 if bf16 else 2
    per_layer = batch * length * hidden * (34 + 5 * heads * length / hidden) * scale
    parts = {
        "weights": parameters * 4,
        "lora": trainable * 16,
        "activations": int(per_layer * layers + batch * length * vocab * 4 * 3),
    }
    parts["total"] = sum(parts.values())
    return parts


def available(device: str) -> int:
    import psutil
    import torch

    if device == "cuda":
        free, _total = torch.cuda.mem_get_info()
        return int(free)
    if device == "mps":
        return int(torch.mps.recommended_max_memory() - torch.mps.current_allocated_memory())
    return int(psutil.virtual_memory().available)
