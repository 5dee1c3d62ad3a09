"""The held-out examples as the evaluator reads them: check_data's normalised eval.jsonl
(one {"messages": [...]} per line), tokenised and truncated exactly as training does."""

from __future__ import annotations

import json
from pathlib import Path

from .template import Tokenised, tokenise, truncate


def read_conversations(path: Path) -> list[list[dict]]:
    return [json.loads(line)["messages"] for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def tokenised_examples(tokenizer, data_dir: Path, name: str, max_length: int) -> tuple[list[Tokenised], int]:
    """(examples truncated to max_length, how many were dropped with no answer token left)."""
    return tokenised(tokenizer, read_conversations(data_dir / name), max_length)


def tokenised(tokenizer, conversations: list[list[dict]], max_length: int) -> tuple[list[Tokenised], int]:
    """(conversations tokenised and truncated to max_length, how many had no answer token left)."""
    kept, dropped = [], 0
    for messages in conversations:
        item = truncate(tokenise(tokenizer, messages), max_length)
        if item is None:
            dropped += 1
        else:
            kept.append(item)
    return kept, dropped
