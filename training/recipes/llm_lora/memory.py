"""Memory of a LoRA training run: what preflight measures on the device, and the estimate it
shows before training and checks against what the device has.

The model's shape alone gave about half the train job's peak on CPU (bench/finetune.py): it
left out the Python/torch runtime and what the allocator keeps. So the estimate is built from
measurements of this process wherever preflight can take them:

runtime: the process before the model loads (interpreter, torch, transformers, peft, trl,
    tokenizer, examples), measured; on a GPU what torch holds there before it (about 0).
weights: what loading the model added, measured (at least every parameter at 4 bytes: fp32).
lora: trainable parameters x 8 bytes (fp32 weight and gradient).
optimizer: trainable parameters x 8 bytes (AdamW's two moments, created by the first
    optimizer step, so the first step's peak does not hold them yet).
activations: the smoke steps' peak above runtime + weights, less the LoRA and AdamW parts:
    activations, logits and the allocator's working set.
    Before that step has run: per layer batch*length*hidden*(34 + 5*heads*length/hidden)
    bytes at 16-bit (Korthikanti et al. 2022), doubled for fp32, plus the logits
    (batch*length*vocab fp32, x3 for the loss and its gradient), scaled by how far that
    formula was from the measured step when one was measured.
measuredPeak: the highest the process (cpu: resident set; cuda: torch's allocations) reached
    during the smoke steps, for comparison; not a part of total. MPS reports no peak: there
    the activations stay the formula's and there is no measuredPeak.
"""

from __future__ import annotations

import resource
import sys
from dataclasses import dataclass
from pathlib import Path

_CLEAR_REFS = Path("/proc/self/clear_refs")
_STATUS = Path("/proc/self/status")


def formula_activations(config, batch: int, length: int, bf16: bool) -> int:
    hidden = getattr(config, "hidden_size", None) or getattr(config, "n_embd")
    layers = getattr(config, "num_hidden_layers", None) or getattr(config, "n_layer")
    heads = getattr(config, "num_attention_heads", None) or getattr(config, "n_head")
    scale = 1 if bf16 else 2
    per_layer = batch * length * hidden * (34 + 5 * heads * length / hidden) * scale
    return int(per_layer * layers + batch * length * config.vocab_size * 4 * 3)


@dataclass(frozen=True)
class Baseline:
    """What preflight measured before the smoke step."""

    runtime: int
    weights: int
    trainable: int


def estimate(base: Baseline, activations: int, measured_peak: int | None = None) -> dict:
    parts = {"runtime": base.runtime, "weights": base.weights, "lora": base.trainable * 8,
             "optimizer": base.trainable * 8, "activations": max(0, int(activations))}
    parts["total"] = sum(parts.values())
    if measured_peak is not None:
        parts["measuredPeak"] = measured_peak
    return parts


def activations_of_step(peaks: list[int], base: Baseline) -> int:
    """The smoke steps' peaks above the runtime and the weights, less LoRA's weights and
    gradients (lora) and, from the second step on, AdamW's moments (optimizer). Measured from
    the runtime and weights, not from the memory before the first step, since weights read
    lazily from their file only become resident in the first forward. The second step also
    shows what the allocator kept from the first."""
    resident = base.runtime + base.weights
    return max(0, max(peak - resident - base.trainable * (8 if n == 0 else 16) for n, peak in enumerate(peaks)))


class Meter:
    """The memory this process holds on `device`, and its peak since the last reset.

    cpu: resident set size; the peak is the kernel's high-water mark (VmHWM), reset through
    /proc/self/clear_refs on Linux. Elsewhere the peak is ru_maxrss, which never resets: a
    bound from above, so a measured step there can only look larger than it was.
    cuda: torch's allocated bytes and torch.cuda.max_memory_allocated.
    """

    def __init__(self, device: str) -> None:
        self.device = device
        # MPS reports no peak: there the estimate keeps the formula's activations.
        self.measures_peak = device in ("cpu", "cuda")

    def now(self) -> int:
        if self.device == "cuda":
            import torch

            return int(torch.cuda.memory_allocated())
        if self.device == "mps":
            import torch

            return int(torch.mps.current_allocated_memory())
        import psutil

        return int(psutil.Process().memory_info().rss)

    def reset_peak(self) -> None:
        if self.device == "cuda":
            import torch

            torch.cuda.reset_peak_memory_stats()
        elif self.device == "cpu" and sys.platform == "linux":
            try:
                _CLEAR_REFS.write_text("5")
            except OSError:
                pass  # then peak() reads the process's whole high-water mark: larger, never smaller

    def peak(self) -> int:
        if self.device == "cuda":
            import torch

            return int(torch.cuda.max_memory_allocated())
        if self.device == "mps":
            return self.now()
        if sys.platform == "linux":
            for line in _STATUS.read_text().splitlines():
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024  # kB
        scale = 1 if sys.platform == "darwin" else 1024  # macOS: bytes; Linux: KiB
        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * scale


def available(device: str, meter: Meter) -> int:
    """What this job can use: free memory now plus what the job already holds (the estimate
    counts both the runtime and the loaded weights, which are in use already)."""
    import psutil
    import torch

    if device == "cuda":
        free, _total = torch.cuda.mem_get_info()
        return int(free) + int(torch.cuda.memory_reserved())
    if device == "mps":
        return int(torch.mps.recommended_max_memory())
    return int(psutil.virtual_memory().available) + meter.now()
