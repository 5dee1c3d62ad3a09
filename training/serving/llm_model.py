"""An LLM release: the base model (checked file by file against the export's base.json) with
the export's LoRA adapter and tokenizer, loaded once; generation (greedy, or sampled as the
request asks: sampling.py) that streams whole characters, ends before a stop sequence
(stop_text.py), and stops at once when its request is cancelled or its deadline passes."""

from __future__ import annotations

import hashlib
import json
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from trainyard_recipe import BadInput

from serving.errors import ServingError
from serving.sampling import Sampling, check_sampling_fields, sampling_processor
from serving.stop_text import StopText
from serving.text_deltas import TextDeltas


@dataclass
class Generation:
    text: str
    prompt_tokens: int
    generated_tokens: int
    finish_reason: str  # stop (the model's end, or a stop sequence) | length | deadline


class LlmModel:
    kind = "llm"

    def __init__(self, folder: Path, base, device: str = "cpu") -> None:
        # Only the export's own files are read (tokenizer/ holds the chat template of
        # training, base.json the base's file hashes), so serving does not depend on the
        # training recipe's internals.
        if not isinstance(base, str) or not base:
            raise BadInput("input field 'base' (the base model folder the adapter was trained on) is required",
                           code="missing_field")
        base_dir = Path(base) / "model" if (Path(base) / "model" / "config.json").is_file() else Path(base)
        problems = base_problems(base_dir, folder / "base.json")
        if problems:
            raise BadInput(f"{base_dir} is not the base model this adapter was trained on (base.json): "
                           + "; ".join(problems[:5]), code="base_mismatch")
        import torch
        from peft import PeftModel
        from transformers import AutoModelForCausalLM, AutoTokenizer

        self._torch = torch
        self.device = device
        self.tokenizer = AutoTokenizer.from_pretrained(str(folder / "tokenizer"), local_files_only=True)
        if not self.tokenizer.chat_template:
            raise BadInput("the export's tokenizer has no chat template", code="export_invalid")
        if self.tokenizer.pad_token is None:
            self.tokenizer.pad_token = self.tokenizer.eos_token
        model = AutoModelForCausalLM.from_pretrained(str(base_dir), dtype=torch.float32, local_files_only=True)
        self.model = PeftModel.from_pretrained(model.to(device), str(folder / "adapter")).eval()
        self.name = getattr(model.config, "_name_or_path", "") or base_dir.name
        # Positions the model has (GPT-2: 1024); past them generation would fail mid-way.
        self.context = getattr(model.config, "max_position_embeddings", None)

    def prompt_ids(self, request: dict) -> list[int]:
        """A prompt is one user message, rendered as training rendered its prompts."""
        messages = request["messages"] if "messages" in request else [{"role": "user", "content": request["prompt"]}]
        text = self.tokenizer.apply_chat_template(messages, tokenize=False, add_generation_prompt=True)
        return self.tokenizer(text, add_special_tokens=False)["input_ids"]

    def generate(self, ids: list[int], max_new_tokens: int, deadline: float, cancelled: threading.Event,
                 on_delta: Callable[[str], None] | None = None, sampling: Sampling = Sampling()) -> Generation:
        torch = self._torch
        deltas = TextDeltas(lambda t: self.tokenizer.decode(t, skip_special_tokens=True))
        stops = StopText(sampling.stop)
        hit_deadline = False

        def hand_out(text: str) -> None:
            visible = stops.push(text)
            if visible and on_delta:
                on_delta(visible)

        def stop(input_ids, _scores, **_kwargs):
            # Called once per new token, after it is appended: its text is handed out here (not
            # by a streamer, which generate() calls only after this check) so a stop sequence
            # ends generation on the token that completed it.
            nonlocal hit_deadline
            hand_out(deltas.push([int(input_ids[0, -1])]))
            if time.monotonic() >= deadline:
                hit_deadline = True
            return torch.full((input_ids.shape[0],), hit_deadline or stops.stopped or cancelled.is_set(),
                              dtype=torch.bool, device=input_ids.device)

        if self.context:
            if len(ids) >= self.context:
                raise ServingError("too_large", f"the prompt is {len(ids)} tokens; this model holds at most {self.context}")
            max_new_tokens = min(max_new_tokens, self.context - len(ids))
        tensor = torch.tensor([ids], device=self.device)
        draw = sampling_processor(sampling, self.device)
        with torch.no_grad():
            out = self.model.generate(input_ids=tensor, attention_mask=torch.ones_like(tensor),
                                      max_new_tokens=max_new_tokens, do_sample=False,
                                      pad_token_id=self.tokenizer.pad_token_id,
                                      stopping_criteria=[stop], logits_processor=[draw] if draw else None)
        generated = out[0, len(ids):].tolist()
        hand_out(deltas.finish())
        tail = stops.finish()
        if tail and on_delta:
            on_delta(tail)
        eos = self.tokenizer.eos_token_id
        if hit_deadline:
            reason = "deadline"
        elif stops.stopped:
            reason = "stop"
        elif generated and generated[-1] == eos:
            reason = "stop"
        elif len(generated) >= max_new_tokens:
            reason = "length"
        else:
            reason = "stop"
        return Generation(text=stops.text(), prompt_tokens=len(ids), generated_tokens=len(generated),
                          finish_reason=reason)


def base_problems(folder: Path, listing: Path) -> list[str]:
    """Each file base.json lists that the folder lacks or holds with other content."""
    problems = []
    for item in json.loads(listing.read_text(encoding="utf-8"))["files"]:
        path = folder / item["path"]
        if not path.is_file():
            problems.append(f"{item['path']}: missing")
            continue
        digest = hashlib.sha256()
        with open(path, "rb") as handle:
            while chunk := handle.read(1 << 20):
                digest.update(chunk)
        if digest.hexdigest() != item["sha256"]:
            problems.append(f"{item['path']}: content differs")
    return problems


def check_generate_request(body) -> dict:
    """The shape of ZServeGenerateRequest, with field-level problems."""
    if not isinstance(body, dict):
        raise ServingError("bad_input", "the body must be a JSON object")
    fields = []
    keys = set(body)
    if ("prompt" in keys) == ("messages" in keys):
        fields.append({"path": "prompt", "message": "give exactly one of prompt or messages"})
    if unknown := sorted(keys - {"prompt", "messages", "maxNewTokens", "temperature", "topP", "seed", "stop"}):
        fields += [{"path": k, "message": "unknown field"} for k in unknown]
    if "prompt" in body and not (isinstance(body["prompt"], str) and body["prompt"]):
        fields.append({"path": "prompt", "message": "expected a non-empty string"})
    if "messages" in body:
        messages = body["messages"]
        if not isinstance(messages, list) or not messages:
            fields.append({"path": "messages", "message": "expected a non-empty list"})
        else:
            for i, m in enumerate(messages):
                if not (isinstance(m, dict) and set(m) == {"role", "content"} and m["role"] in ("system", "user", "assistant")
                        and isinstance(m["content"], str)):
                    fields.append({"path": f"messages[{i}]", "message": "expected {role: system|user|assistant, content: string}"})
    if "maxNewTokens" in body:
        n = body["maxNewTokens"]
        if isinstance(n, bool) or not isinstance(n, int) or n < 1:
            fields.append({"path": "maxNewTokens", "message": "expected a positive integer"})
    fields += check_sampling_fields(body)
    if fields:
        raise ServingError("bad_input", "the request does not match the generate request", fields=fields)
    return body
