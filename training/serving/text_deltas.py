"""Whole-character text deltas from a growing list of token ids. A byte-level tokenizer can
end a token in the middle of a UTF-8 sequence; decoding such a prefix yields U+FFFD at the
end, so that tail is held back until a later token completes the character."""

from __future__ import annotations

from typing import Callable, Sequence

REPLACEMENT = "\ufffd"


class TextDeltas:
    def __init__(self, decode: Callable[[Sequence[int]], str]) -> None:
        self._decode = decode
        self._ids: list[int] = []
        self._sent = 0  # characters of the decoded text already handed out

    @property
    def token_count(self) -> int:
        return len(self._ids)

    def push(self, ids: Sequence[int]) -> str:
        """Add tokens; return the new complete characters (possibly "")."""
        self._ids.extend(int(i) for i in ids)
        text = self._decode(self._ids)
        stable = len(text)
        while stable > self._sent and text[stable - 1] == REPLACEMENT:
            stable -= 1
        delta = text[self._sent:stable]
        self._sent = stable
        return delta

    def finish(self) -> str:
        """Everything not handed out yet, including a character that never completed."""
        text = self._decode(self._ids)
        delta = text[self._sent:]
        self._sent = len(text)
        return delta

    def text(self) -> str:
        return self._decode(self._ids)
