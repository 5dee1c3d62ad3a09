"""What preflight and train share: LoRA settings, mixed precision, the dataset.

The device, the model on it and the tokenised examples are the trusted evaluator's
(training/evaluation_lm), imported from there so training and scoring cannot drift apart.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from trainyard_recipe import BadInput

from evaluation_lm.device import chosen_device, load_model
from evaluation_lm.examples import tokenised_examples
from evaluation_lm.template import Tokenised

from .fields import number

# Re-exported for preflight and train, which read them from here.
__all__ = ["LoraSettings", "as_dataset", "check_data_dir", "chosen_device", "load_model", "tokenised_examples",
           "use_bf16"]


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


def use_bf16(device: str) -> bool:
    """bf16 mixed precision where the GPU supports it; fp32 on CPU and MPS."""
    import torch

    return device == "cuda" and torch.cuda.is_bf16_supported()


def as_dataset(items: list[Tokenised]):
    from datasets import Dataset

    return Dataset.from_list([{"input_ids": i.input_ids, "completion_mask": i.completion_mask} for i in items])


def check_data_dir(path: Path) -> Path:
    if not (path / "train.jsonl").is_file() or not (path / "eval.jsonl").is_file():
        raise BadInput(f"{path} is not a check_data output (train.jsonl and eval.jsonl)", code="invalid_input",
                       details={"field": "data"})
    return path
