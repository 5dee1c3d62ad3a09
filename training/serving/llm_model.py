"""An LLM release: the base model (checked file by file against the export's base.json) with
the export's LoRA adapter and tokenizer, loaded once; greedy generation that streams whole
characters and stops at once when its request is cancelled or its deadline passes."""

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
from serving.text_deltas import TextDeltas


@dataclass
class Generation:
    text: str
    prompt_tokens: int
    generated_tokens: int
    finish_reason: str  # stop | length | deadline


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
                 on_delta: Callable[[str], None] | None = None) -> Generation:
        torch = self._torch
        deltas = TextDeltas(lambda t: self.tokenizer.decode(t, skip_special_tokens=True))
        hit_deadline = False

        class Streamer:
            prompt_seen = False

            def put(self, value) -> None:
                if not self.prompt_seen:  # generate() hands the prompt over first
                    self.prompt_seen = True
                    return
                delta = deltas.push(value.reshape(-1).tolist())
                if delta and on_delta:
                    on_delta(delta)

            def end(self) -> None:
                pass

        def stop(input_ids, _scores, **_kwargs):
            nonlocal hit_deadline
            if time.monotonic() >= deadline:
                hit_deadline = True
            return torch.full((input_ids.shape[0],), hit_deadline or cancelled.is_set(), dtype=torch.bool,
                              device=input_ids.device)

        if self.context:
            if len(ids) >= self.context:
                raise ServingError("too_large", f"the prompt is {len(ids)} tokens; this model holds at most {self.context}")
            max_new_tokens = min(max_new_tokens, self.context - len(ids))
        tensor = torch.tensor([ids], device=self.device)
        with torch.no_grad():
            out = self.model.generate(input_ids=tensor, attention_mask=torch.ones_like(tensor),
                                      max_new_tokens=max_new_tokens, do_sample=False,
                                      pad_token_id=self.tokenizer.pad_token_id, streamer=Streamer(),
                                      stopping_criteria=[stop])
        generated = out[0, len(ids):].tolist()
        tail = deltas.finish()
        if tail and on_delta:
            on_delta(tail)
        eos = self.tokenizer.eos_token_id
        if hit_deadline:
            reason = "deadline"
        elif generated and generated[-1] == eos:
            reason = "stop"
        elif len(generated) >= max_new_tokens:
            reason = "length"
        else:
            reason = "stop"
        return Generation(text=deltas.text(), prompt_tokens=len(ids), generated_tokens=len(generated),
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
    if unknown := sorted(keys - {"prompt", "messages", "maxNewTokens"}):
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
    if fields:
        raise ServingError("bad_input", "the request does not match the generate request", fields=fields)
    return body
