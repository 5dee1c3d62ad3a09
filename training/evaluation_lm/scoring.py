"""Mean negative log-likelihood per answer token: the number base and adapter are compared on.

Uses the same tokenisation and truncation as training (template.tokenise / truncate), so the
tokens scored are exactly the tokens trained. Not teacher-forced accuracy: the NLL of the
reference answer given the prompt, summed over answer tokens and divided by their count.
"""

from __future__ import annotations

import math

from .template import Tokenised


def pad_batch(batch: list[Tokenised], pad_id: int):
    """input_ids, attention_mask and labels (-100 on the prompt and padding), right-padded."""
    import torch

    width = max(len(i.input_ids) for i in batch)
    ids = torch.full((len(batch), width), pad_id, dtype=torch.long)
    attention = torch.zeros((len(batch), width), dtype=torch.long)
    labels = torch.full((len(batch), width), -100, dtype=torch.long)
    for row, item in enumerate(batch):
        n = len(item.input_ids)
        ids[row, :n] = torch.tensor(item.input_ids)
        attention[row, :n] = 1
        labels[row, :n] = torch.tensor([t if m else -100 for t, m in zip(item.input_ids, item.completion_mask)])
    return ids, attention, labels


def score(model, items: list[Tokenised], pad_id: int, device: str, batch_size: int = 4) -> dict:
    import torch

    total_nll, total_tokens, per_example = 0.0, 0, []
    model.eval()
    with torch.no_grad():
        for start in range(0, len(items), batch_size):
            batch = items[start:start + batch_size]
            ids, attention, labels = pad_batch(batch, pad_id)
            logits = model(input_ids=ids.to(device), attention_mask=attention.to(device)).logits.float()
            shifted, targets = logits[:, :-1], labels[:, 1:].to(device)
            nll = torch.nn.functional.cross_entropy(shifted.reshape(-1, shifted.size(-1)), targets.reshape(-1),
                                                    ignore_index=-100, reduction="none").view(targets.shape)
            counted = (targets != -100)
            for row in range(len(batch)):
                example_nll, tokens = float(nll[row][counted[row]].sum()), int(counted[row].sum())
                per_example.append({"nll": example_nll, "tokens": tokens})
                total_nll += example_nll
                total_tokens += tokens
    mean = total_nll / max(total_tokens, 1)
    return {"meanNll": mean, "perplexity": math.exp(min(mean, 700)), "tokens": total_tokens,
            "examples": len(items), "perExample": per_example}


def generate(model, tokenizer, prompts: list[str], device: str, max_new_tokens: int) -> list[str]:
    """Greedy answers to rendered prompts (one at a time: no padding side effects)."""
    import torch

    answers = []
    model.eval()
    with torch.no_grad():
        for prompt in prompts:
            ids = tokenizer(prompt, add_special_tokens=False, return_tensors="pt")["input_ids"].to(device)
            out = model.generate(input_ids=ids, attention_mask=torch.ones_like(ids), max_new_tokens=max_new_tokens,
                                 do_sample=False, pad_token_id=tokenizer.pad_token_id)
            answers.append(tokenizer.decode(out[0, ids.shape[1]:], skip_special_tokens=True))
    return answers
