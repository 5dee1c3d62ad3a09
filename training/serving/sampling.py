"""How a generation picks its tokens: greedy (no temperature, or 0) or sampled with a
temperature and nucleus (top_p), from a random generator of the request's own, seeded by
its `seed`, so a seeded request gives the same text again whatever other requests do in
between (the process's global RNG is never touched). Sampling is a logits processor that
leaves only the drawn token possible: generate() itself stays greedy, so its stopping
criteria (deltas, stop sequences, deadline, cancel) see the same steps either way."""

from __future__ import annotations

from dataclasses import dataclass, field

# A temperature this small would overflow the logits divided by it; sampling there is greedy anyway.
MIN_TEMPERATURE = 1e-6
MAX_SAFE_SEED = 2**53 - 1  # what JSON numbers carry exactly (contracts: Number.MAX_SAFE_INTEGER)


@dataclass(frozen=True)
class Sampling:
    temperature: float | None = None  # None or 0: greedy
    top_p: float = 1.0
    seed: int | None = None  # None: a fresh random seed per request
    stop: tuple[str, ...] = field(default_factory=tuple)

    @property
    def greedy(self) -> bool:
        return not self.temperature

    @classmethod
    def of_request(cls, body: dict) -> "Sampling":
        """From a checked generate request (check_sampling_fields found no problem)."""
        return cls(temperature=body.get("temperature"), top_p=body.get("topP", 1.0), seed=body.get("seed"),
                   stop=tuple(body.get("stop", ())))


def _number(value) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def check_sampling_fields(body: dict) -> list[dict]:
    """Field-level problems of temperature, topP, seed and stop (ZServeGenerateRequest)."""
    fields = []
    if "temperature" in body and not (_number(body["temperature"]) and 0 <= body["temperature"] <= 2):
        fields.append({"path": "temperature", "message": "expected a number from 0 (greedy) to 2"})
    if "topP" in body and not (_number(body["topP"]) and 0 <= body["topP"] <= 1):
        fields.append({"path": "topP", "message": "expected a number from 0 to 1"})
    if "seed" in body:
        seed = body["seed"]
        if isinstance(seed, bool) or not isinstance(seed, int) or abs(seed) > MAX_SAFE_SEED:
            fields.append({"path": "seed", "message": f"expected an integer from -{MAX_SAFE_SEED} to {MAX_SAFE_SEED}"})
    if "stop" in body:
        stop = body["stop"]
        if not isinstance(stop, list) or len(stop) > 4 or not all(isinstance(s, str) and s for s in stop):
            fields.append({"path": "stop", "message": "expected a list of at most 4 non-empty strings"})
    return fields


def sampling_processor(sampling: Sampling, device: str):
    """The logits processor that draws each token, or None for greedy decoding."""
    if sampling.greedy:
        return None
    import torch
    from transformers import LogitsProcessor

    generator = torch.Generator(device=device)
    if sampling.seed is None:
        generator.seed()
    else:
        generator.manual_seed(sampling.seed)
    temperature = max(float(sampling.temperature), MIN_TEMPERATURE)
    top_p = float(sampling.top_p)

    class DrawToken(LogitsProcessor):
        def __call__(self, input_ids, scores):
            probs = torch.softmax(scores.float() / temperature, dim=-1)
            if top_p < 1.0:
                # Nucleus: the most likely tokens whose mass reaches top_p (the first always stays).
                sorted_probs, order = probs.sort(dim=-1, descending=True)
                outside = (sorted_probs.cumsum(dim=-1) - sorted_probs) > top_p
                outside[..., 0] = False
                sorted_probs = sorted_probs.masked_fill(outside, 0.0)
                probs = torch.zeros_like(probs).scatter(-1, order, sorted_probs)
            drawn = torch.multinomial(probs, num_samples=1, generator=generator)
            only = torch.full_like(scores, float("-inf"))
            return only.scatter(-1, drawn, 0.0)

    return DrawToken()
