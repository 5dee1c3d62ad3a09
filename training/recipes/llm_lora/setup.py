"""What preflight, train and evaluate share: the device, the model on it, LoRA, the dataset.

The device is always the one the user chose: cpu, cuda or mps. If it is not there the job
is refused (device_unavailable); nothing falls back to another device silently.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from trainyard_recipe import BadInput

from .conversations import load_normalised
from .fields import choice, number
from .template import Tokenised, tokenise, truncate

DEVICES = ("cpu", "cuda", "mps")


@dataclass(frozen=True)
class LoraSettings:
    rank: int
    alpha: int
    dropout: float
    target_modules: str | list[str]

    @classmethod
    def from_input(cls, job_input: dict) -> "LoraSettings":
        rank = number(job_input, "rank", 16, minimum=1, maximum=1024, integer=True)
        targets = job_input.get("targetModules", "all-linear")
        if not (targets == "all-linear" or (isinstance(targets, list) and targets and all(isinstance(t, str) for t in targets))):
            raise BadInput("input field 'targetModules' must be \"all-linear\" or a list of module names",
                           code="invalid_input", details={"field": "targetModules"})
        return cls(rank=rank, alpha=number(job_input, "alpha", 2 * rank, minimum=1, integer=True),
                   dropout=number(job_input, "dropout", 0.05, minimum=0, maximum=0.9), target_modules=targets)

    def peft_config(self):
        from peft import LoraConfig

        return LoraConfig(r=self.rank, lora_alpha=self.alpha, lora_dropout=self.dropout,
                          target_modules=self.target_modules, task_type="CAUSAL_LM")

    def as_json(self) -> dict:
        return {"rank": self.rank, "alpha": self.alpha, "dropout": self.dropout, "targetModules": self.target_modules}


def chosen_device(job_input: dict) -> str:
    """The device named in the input, checked to exist; BadInput(device_unavailable) if not."""
    import torch

    device = choice(job_input, "device", DEVICES, "cpu")
    if device == "cuda" and not torch.cuda.is_available():
        raise BadInput("device cuda was chosen but torch sees no CUDA GPU on this computer (driver, "
                       "CUDA_VISIBLE_DEVICES, or a CPU-only torch build). Choose cpu, or fix the GPU setup.",
                       code="device_unavailable")
    if device == "mps" and not torch.backends.mps.is_available():
        raise BadInput("device mps was chosen but Metal (MPS) is not available here. Choose cpu.",
                       code="device_unavailable")
    return device


def use_bf16(device: str) -> bool:
    """bf16 mixed precision where the GPU supports it; fp32 on CPU and MPS."""
    import torch

    return device == "cuda" and torch.cuda.is_bf16_supported()


def load_model(model_dir: Path, device: str):
    """fp32 weights (mixed precision, when used, is the trainer's autocast) on `device`."""
    import torch
    from transformers import AutoModelForCausalLM
    from transformers.utils import logging as hf_logging

    hf_logging.disable_progress_bar()
    model = AutoModelForCausalLM.from_pretrained(str(model_dir), dtype=torch.float32, local_files_only=True)
    return model.to(device)


def tokenised_examples(tokenizer, data_dir: Path, name: str, max_length: int) -> tuple[list[Tokenised], int]:
    """(examples truncated to max_length, how many were dropped with no answer token left)."""
    kept, dropped = [], 0
    for messages in load_normalised(data_dir / name):
        item = truncate(tokenise(tokenizer, messages), max_length)
        if item is None:
            dropped += 1
        else:
            kept.append(item)
    return kept, dropped


def as_dataset(items: list[Tokenised]):
    from datasets import Dataset

    return Dataset.from_list([{"input_ids": i.input_ids, "completion_mask": i.completion_mask} for i in items])


def check_data_dir(path: Path) -> Path:
    if not (path / "train.jsonl").is_file() or not (path / "eval.jsonl").is_file():
        raise BadInput(f"{path} is not a check_data output (train.jsonl and eval.jsonl)", code="invalid_input",
                       details={"field": "data"})
    return path
