"""The device a job runs on and the model on it, shared with llm_lora's preflight and train.

The device is always the one the user chose: cpu, cuda or mps. If it is not there the job
is refused (device_unavailable); nothing falls back to another device silently.
"""

from __future__ import annotations

from pathlib import Path

from trainyard_recipe import BadInput

DEVICES = ("cpu", "cuda", "mps")


def chosen_device(job_input: dict) -> str:
    """The device named in the input, checked to exist; BadInput(device_unavailable) if not."""
    import torch

    device = job_input.get("device", "cpu")
    if device not in DEVICES:
        raise BadInput(f"input field 'device' must be one of {', '.join(DEVICES)}, got {device!r}",
                       code="invalid_input", details={"field": "device"})
    if device == "cuda" and not torch.cuda.is_available():
        raise BadInput("device cuda was chosen but torch sees no CUDA GPU on this computer (driver, "
                       "CUDA_VISIBLE_DEVICES, or a CPU-only torch build). Choose cpu, or fix the GPU setup.",
                       code="device_unavailable")
    if device == "mps" and not torch.backends.mps.is_available():
        raise BadInput("device mps was chosen but Metal (MPS) is not available here. Choose cpu.",
                       code="device_unavailable")
    return device


def load_model(model_dir: Path, device: str):
    """fp32 weights (mixed precision, when used, is the trainer's autocast) on `device`."""
    import torch
    from transformers import AutoModelForCausalLM
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()
    model = AutoModelForCausalLM.from_pretrained(str(model_dir), dtype=torch.float32, local_files_only=True)
    return model.to(device)
