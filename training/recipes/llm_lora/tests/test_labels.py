"""THE LABEL TEST: on real tokenized examples, through TRL's own dataset preparation and
collator, every prompt token has label -100 and every answer token is its own label.

The prompt boundary is computed independently of the recipe: the tokenizer's own
apply_chat_template(..., add_generation_prompt=True, tokenize=True) of the messages before
the answer. The answer tokens are checked by decoding them back to the answer text.
"""

from __future__ import annotations

import json

import pytest

from recipes.llm_lora.setup import as_dataset, load_model
from evaluation_lm.template import load_tokenizer, tokenise
from recipes.llm_lora.tests.support import DATA


def _conversations(name: str, n: int) -> list[list[dict]]:
    rows = [json.loads(line) for line in (DATA / name).read_text().splitlines()[:n]]
    if "messages" in rows[0]:
        return [row["messages"] for row in rows]
    return [[{"role": "user", "content": r["prompt"]}, {"role": "assistant", "content": r["completion"]}] for r in rows]


def _trl_labels(model_dir, conversations):
    """What SFTTrainer trains on: its prepared dataset, then its collator's padded batch."""
    from trl import SFTConfig, SFTTrainer

    tokenizer = load_tokenizer(model_dir)
    items = [tokenise(tokenizer, messages) for messages in conversations]
    config = SFTConfig(output_dir="unused", use_cpu=True, bf16=False, report_to=[], max_length=4096,
                       completion_only_loss=True, per_device_train_batch_size=len(items))
    trainer = SFTTrainer(model=load_model(model_dir, "cpu"), args=config, train_dataset=as_dataset(items),
                         processing_class=tokenizer)
    prepared = sorted(trainer.train_dataset, key=lambda row: len(row["input_ids"]))
    batch = trainer.data_collator([{"input_ids": r["input_ids"], "labels": r["labels"]} for r in prepared])
    return tokenizer, prepared, batch


@pytest.mark.parametrize("fixture_name", ["gsm8k-chat.jsonl", "gsm8k-prompt-completion.jsonl"])
def test_every_prompt_token_is_masked_and_every_answer_token_is_trained_smollm2(smollm2, fixture_name):
    conversations = _conversations(fixture_name, 6)
    tokenizer, prepared, batch = _trl_labels(smollm2.output("model"), conversations)
    by_ids = {tuple(row["input_ids"]): row["labels"] for row in prepared}
    for messages in conversations:
        prompt_ids = tokenizer.apply_chat_template(messages[:-1], add_generation_prompt=True, tokenize=True,
                                                   return_dict=True)["input_ids"]
        input_ids = tokenise(tokenizer, messages).input_ids
        labels = by_ids[tuple(input_ids)]
        assert input_ids[:len(prompt_ids)] == prompt_ids
        assert all(label == -100 for label in labels[:len(prompt_ids)])
        answer = labels[len(prompt_ids):]
        assert answer and answer == input_ids[len(prompt_ids):]  # none of them -100
        # ChatML: the answer, then the end-of-turn marker the model must learn to emit
        assert tokenizer.decode(answer) == messages[-1]["content"] + "<|im_end|>\n"
    # the collator pads labels with -100 and keeps each row's labels as prepared
    for row, labels in zip(batch["labels"].tolist(), [r["labels"] for r in prepared]):
        assert row[:len(labels)] == labels and all(v == -100 for v in row[len(labels):])


def test_default_template_masks_the_prompt_for_a_model_without_one_gpt2(tiny):
    conversations = _conversations("gsm8k-prompt-completion.jsonl", 4)
    tokenizer, prepared, _batch = _trl_labels(tiny / "model", conversations)
    assert tokenizer.chat_template.startswith("{%- for message in messages -%}")  # the documented default
    by_ids = {tuple(row["input_ids"]): row["labels"] for row in prepared}
    for messages in conversations:
        prompt_text = f"### User:\n{messages[0]['content']}\n\n### Assistant:\n"
        prompt_ids = tokenizer(prompt_text, add_special_tokens=False)["input_ids"]
        input_ids = tokenise(tokenizer, messages).input_ids
        labels = by_ids[tuple(input_ids)]
        assert input_ids[:len(prompt_ids)] == prompt_ids and set(labels[:len(prompt_ids)]) == {-100}
        assert -100 not in labels[len(prompt_ids):]
        assert tokenizer.decode(labels[len(prompt_ids):]) == messages[-1]["content"] + "<|endoftext|>\n\n"
