"""Whole characters only: a byte-level tokenizer that splits a character's UTF-8 bytes over
tokens never yields a broken character in a delta, and the deltas add up to the text."""

from serving.text_deltas import REPLACEMENT, TextDeltas

TEXT = "héllo 🙂 世界, naïve ☃"


def byte_decode(ids):  # one token per byte: the worst split a byte-level tokenizer can make
    return bytes(ids).decode("utf-8", errors="replace")


def test_deltas_hold_a_split_character_until_its_last_byte_arrives():
    deltas = TextDeltas(byte_decode)
    out = [deltas.push([b]) for b in TEXT.encode("utf-8")]
    assert "".join(out) + deltas.finish() == TEXT
    assert all(REPLACEMENT not in d for d in out)
    emoji = "🙂".encode("utf-8")
    start = TEXT.encode("utf-8").index(emoji)
    assert out[start:start + 3] == ["", "", ""] and out[start + 3] == "🙂"


def test_finish_hands_out_a_character_that_never_completed():
    deltas = TextDeltas(byte_decode)
    assert deltas.push(list("ok".encode()) + list("🙂".encode())[:2]) == "ok"
    assert deltas.finish() == REPLACEMENT
    assert deltas.token_count == 4
