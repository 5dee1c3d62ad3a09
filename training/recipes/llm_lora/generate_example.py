"""Answer a prompt with this LoRA adapter on its base model: greedy, with the chat template
the adapter was trained with (tokenizer/). Shipped as generate.py in every llm-lora export.

    pip install -r requirements.txt
    python generate.py BASE_MODEL_FOLDER "your question" [--max-new-tokens 128] [--device cpu]

BASE_MODEL_FOLDER is the base model in Hugging Face format. The archive does not hold it:
base.json names each of its files by SHA-256, and they are checked before loading
(--skip-base-check skips that). For a base imported from a GGUF file, that folder is the one
Trainyard's import wrote (model/ of the import_base job), not the GGUF itself.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as handle:
        while chunk := handle.read(1 << 20):
            digest.update(chunk)
    return digest.hexdigest()


def base_problems(folder: Path, listing: Path = HERE / "base.json") -> list[str]:
    """Each file base.json lists that the folder lacks or holds with other content."""
    base = json.loads(listing.read_text(encoding="utf-8"))
    problems = []
    for item in base["files"]:
        path = folder / item["path"]
        if not path.is_file():
            problems.append(f"{item['path']}: missing")
        elif _sha256(path) != item["sha256"]:
            problems.append(f"{item['path']}: content differs")
    return problems


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("base", type=Path, help="the base model folder (Hugging Face format)")
    parser.add_argument("prompt", help="one user message")
    parser.add_argument("--max-new-tokens", type=int, default=128)
    parser.add_argument("--device", default="cpu", help="cpu, cuda or mps")
    parser.add_argument("--skip-base-check", action="store_true", help="load the base without checking its hashes")
    args = parser.parse_args(argv)
    if not args.skip_base_check and (problems := base_problems(args.base)):
        print(f"{args.base} is not the base model this adapter was trained on (base.json): "
              + "; ".join(problems[:5]), file=sys.stderr)
        return 1

    import torch
    from peft import PeftModel
    from transformers import AutoModelForCausalLM, AutoTokenizer

    tokenizer = AutoTokenizer.from_pretrained(str(HERE / "tokenizer"), local_files_only=True)
    model = AutoModelForCausalLM.from_pretrained(str(args.base), dtype=torch.float32, local_files_only=True)
    model = PeftModel.from_pretrained(model.to(args.device), str(HERE / "adapter")).eval()
    text = tokenizer.apply_chat_template([{"role": "user", "content": args.prompt}], tokenize=False,
                                         add_generation_prompt=True)
    ids = tokenizer(text, add_special_tokens=False, return_tensors="pt")["input_ids"].to(args.device)
    with torch.no_grad():
        out = model.generate(input_ids=ids, attention_mask=torch.ones_like(ids), max_new_tokens=args.max_new_tokens,
                             do_sample=False, pad_token_id=tokenizer.pad_token_id)
    print(tokenizer.decode(out[0, ids.shape[1]:], skip_special_tokens=True))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
