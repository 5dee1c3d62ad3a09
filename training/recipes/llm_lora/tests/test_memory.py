"""memory.py: the estimate's parts and the meter preflight measures them with (this process, CPU)."""

from __future__ import annotations

from types import SimpleNamespace

from recipes.llm_lora.memory import Baseline, Meter, activations_of_step, estimate, formula_activations
from recipes.llm_lora.preflight import _fitting

GPT2_LIKE = SimpleNamespace(hidden_size=64, num_hidden_layers=2, num_attention_heads=4, vocab_size=1000)


def test_the_estimate_is_the_sum_of_its_parts_with_the_measured_peak_beside_them():
    base = Baseline(runtime=400 << 20, weights=500 << 20, trainable=1_000_000)
    parts = estimate(base, activations=300 << 20, measured_peak=1200 << 20)
    assert parts["lora"] == parts["optimizer"] == 8_000_000  # fp32 weight + gradient; AdamW's two moments
    assert parts["total"] == sum(v for k, v in parts.items() if k not in ("total", "measuredPeak"))
    assert parts["measuredPeak"] == 1200 << 20
    assert "measuredPeak" not in estimate(base, activations=1)  # before a step has run there is none
    # The steps' peaks above runtime + weights, less LoRA (and from the second step AdamW), never negative.
    small = Baseline(runtime=60, weights=40, trainable=5)
    assert activations_of_step([900, 700], small) == 900 - 100 - 40
    assert activations_of_step([900, 1500], small) == 1500 - 100 - 80
    assert activations_of_step([100], small) == 0


def test_the_meter_sees_an_allocation_in_its_peak_and_forgets_it_after_a_reset():
    import mmap

    meter = Meter("cpu")
    meter.reset_peak()
    before = meter.now()
    # Fresh pages from the kernel: heap memory the allocator kept from earlier tests could be
    # reused without the resident set growing.
    block = mmap.mmap(-1, 64 << 20)
    block.write(b"\x01" * (64 << 20))
    assert meter.now() - before > 48 << 20
    block.close()
    assert meter.peak() - before > 48 << 20
    meter.reset_peak()
    assert meter.peak() < before + (48 << 20)


def test_settings_proposed_when_memory_does_not_fit_do_fit():
    base = Baseline(runtime=400 << 20, weights=100 << 20, trainable=10_000)
    batch, length = 16, 1024
    needed = estimate(base, formula_activations(GPT2_LIKE, batch, length, bf16=False))["total"]
    free = base.runtime + base.weights + (needed - base.runtime - base.weights) // 5
    for scale in (1.0, 2.0):  # before the smoke step, and after it measured twice the formula
        fitting = _fitting(GPT2_LIKE, base, batch, length, False, free, scale)
        assert fitting and all(option != {"batchSize": batch, "maxLength": length} for option in fitting)
        for option in fitting:
            activations = formula_activations(GPT2_LIKE, option["batchSize"], option["maxLength"], False) * scale
            assert estimate(base, activations)["total"] <= free
    assert _fitting(GPT2_LIKE, base, batch, length, False, base.runtime, 1.0) == []  # nothing fits: none proposed
