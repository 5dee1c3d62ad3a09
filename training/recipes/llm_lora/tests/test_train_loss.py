"""The train job's loss (train.lean_trainer_class) against TRL's own on the same batches."""

from __future__ import annotations

import pytest


def test_the_lean_trainers_loss_and_gradients_are_trls_on_the_same_batch(tmp_path, tiny, tiny_data):
    import torch
    from peft import get_peft_model
    from trl import SFTTrainer

    from evaluation_lm.template import load_tokenizer
    from recipes.llm_lora.setup import LoraSettings, load_model, tokenised_examples
    from recipes.llm_lora.train import _settings, build_trainer

    tokenizer = load_tokenizer(tiny / "model")
    items, _ = tokenised_examples(tokenizer, tiny_data, "train.jsonl", 64)
    torch.manual_seed(0)
    model = get_peft_model(load_model(tiny / "model", "cpu"), LoraSettings.from_input({"rank": 2, "dropout": 0}).peft_config())
    trainer = build_trainer(model, tokenizer, items, [], _settings({"maxLength": 64, "batchSize": 4}), "cpu", 4,
                            tmp_path, [])
    batch = next(iter(trainer.get_train_dataloader()))
    assert (batch["labels"] == -100).any() and (batch["labels"] != -100).any()  # prompt masked, answer kept
    answer_tokens = int((batch["labels"][:, 1:] != -100).sum()) + 3  # as if accumulated with a larger batch

    def loss_and_grads(compute):
        model.zero_grad()
        loss = compute(trainer, model, dict(batch), num_items_in_batch=answer_tokens)
        loss.backward()
        return float(loss.detach()), [p.grad.clone() for p in model.parameters() if p.requires_grad]

    model.eval()  # the model's own dropout off, so both forwards see the same network (gradients still flow)
    lean, lean_grads = loss_and_grads(type(trainer).compute_loss)
    trl, trl_grads = loss_and_grads(SFTTrainer.compute_loss)
    assert lean == pytest.approx(trl, rel=1e-6)
    for a, b in zip(lean_grads, trl_grads):
        torch.testing.assert_close(a, b, rtol=1e-4, atol=1e-7)
