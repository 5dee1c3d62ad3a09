"""The caps a serving process enforces, parsed from its job input with the defaults and
bounds of ZServingLimits (contracts/deployments/serving.ts)."""

from __future__ import annotations

from dataclasses import dataclass

from trainyard_recipe import BadInput

# name: (default, minimum, maximum, integer) — the same numbers as ZServingLimits.
_FIELDS = {
    "maxRows": (1000, 1, 100_000, True),
    "maxRequestBytes": (4 * 1024 * 1024, 1, 64 * 1024 * 1024, True),
    "maxPromptTokens": (2048, 1, 131_072, True),
    "maxNewTokens": (256, 1, 8192, True),
    "requestDeadlineSeconds": (60.0, 1e-9, 3600, False),
    "concurrency": (1, 1, 64, True),
    "maxQueue": (16, 0, 1024, True),
}


@dataclass(frozen=True)
class Limits:
    max_rows: int
    max_request_bytes: int
    max_prompt_tokens: int
    max_new_tokens: int
    request_deadline_seconds: float
    concurrency: int
    max_queue: int


def parse_limits(raw) -> Limits:
    raw = {} if raw is None else raw
    if not isinstance(raw, dict):
        raise BadInput("limits must be an object", code="invalid_input")
    unknown = sorted(set(raw) - set(_FIELDS))
    if unknown:
        raise BadInput(f"unknown limit(s): {', '.join(unknown)}", code="invalid_input")
    values = {}
    for name, (default, low, high, integer) in _FIELDS.items():
        value = raw.get(name, default)
        ok = isinstance(value, (int, float)) and not isinstance(value, bool) and low <= value <= high
        if integer and ok:
            ok = float(value).is_integer()
        if not ok:
            raise BadInput(f"limits.{name} must be {'an integer' if integer else 'a number'} in [{low}, {high}], "
                           f"got {value!r}", code="invalid_input")
        values[name] = int(value) if integer else float(value)
    return Limits(max_rows=values["maxRows"], max_request_bytes=values["maxRequestBytes"],
                  max_prompt_tokens=values["maxPromptTokens"], max_new_tokens=values["maxNewTokens"],
                  request_deadline_seconds=values["requestDeadlineSeconds"], concurrency=values["concurrency"],
                  max_queue=values["maxQueue"])
