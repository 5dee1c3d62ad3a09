"""The one tokenisation and masking training and scoring share, on real tokenised examples:
every prompt token is label -100, every answer token is scored, padding is never scored."""

from __future__ import annotations

import json

from evaluation_lm.examples import read_conversations, tokenised_examples
from evaluation_lm.scoring import pad_batch
from evaluation_lm.template import load_tokenizer, render_prompt, tokenise, truncate
from evaluation_lm.tests.support import DATA, TINY_GPT2


def _conversations(n: int) -> list[list[dict]]:
    rows = [json.loads(line) for line in (DATA / "gsm8k-prompt-completion.jsonl").read_text().splitlines()[:n]]
    return [[{"role": "user", "content": r["prompt"]}, {"role": "assistant", "content": r["completion"]}] for r in rows]


def test_prompt_tokens_are_minus_100_and_answer_tokens_are_scored_on_real_examples():
    tokenizer = load_tokenizer(TINY_GPT2)
    conversations = _conversations(4)
    items = [tokenise(tokenizer, messages) for messages in conversations]
    ids, attention, labels = pad_batch(items, tokenizer.pad_token_id)
    for row, (item, messages) in enumerate(zip(items, conversations)):
        prompt_ids = tokenizer(render_prompt(tokenizer, messages), add_special_tokens=False)["input_ids"]
        n = len(item.input_ids)
        assert item.prompt_length == len(prompt_ids) > 0
        assert labels[row, :len(prompt_ids)].tolist() == [-100] * len(prompt_ids)
        assert labels[row, len(prompt_ids):n].tolist() == item.input_ids[len(prompt_ids):]
        assert tokenizer.decode(labels[row, len(prompt_ids):n].tolist()) == messages[-1]["content"] + "<|endoftext|>\n\n"
        assert set(labels[row, n:].tolist()) <= {-100} and attention[row, n:].sum() == 0


def test_truncation_keeps_the_start_and_drops_an_example_with_no_answer_token_left(tmp_path):
    tokenizer = load_tokenizer(TINY_GPT2)
    item = tokenise(tokenizer, _conversations(1)[0])
    assert truncate(item, item.prompt_length) is None
    kept = truncate(item, item.prompt_length + 1)
    assert kept.input_ids == item.input_ids[:item.prompt_length + 1] and kept.completion_mask[-1] == 1
    (tmp_path / "eval.jsonl").write_text("".join(json.dumps({"messages": m}) + "\n" for m in _conversations(3)))
    items, dropped = tokenised_examples(tokenizer, tmp_path, "eval.jsonl", item.prompt_length)
    assert len(items) + dropped == len(read_conversations(tmp_path / "eval.jsonl")) == 3
    assert all(1 in i.completion_mask for i in items)
