"""The export's verification, run in a fresh process (python -m recipes.llm_lora.reproduce):
reload the base and the unpacked archive's adapter and tokenizer, and score the archive's
eval.jsonl exactly as the trusted evaluator (evaluation_lm score) did: its tokenisation, masking
and scoring code, on CPU in fp32 at the receipt's maxLength.

    python -m recipes.llm_lora.reproduce --base MODEL_FOLDER --export UNPACKED_FOLDER --out result.json

Exit 0 with result.json {meanNll, tokens, examples}; exit 1 naming the problem (a base folder
that is not the one base.json names, an archive that does not load).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path


class NotReproducible(Exception):
    pass


def reproduce(base: Path, export: Path) -> dict:
    import torch
    from peft import PeftModel

    from evaluation_lm.device import load_model
    from evaluation_lm.examples import tokenised_examples
    from evaluation_lm.scoring import score
    from evaluation_lm.template import load_tokenizer

    from .generate_example import base_problems  # the check generate.py makes, on the same base.json

    torch.set_num_threads(int(os.environ.get("TRAINYARD_CPUS", "1")))
    if problems := base_problems(base, export / "base.json"):
        raise NotReproducible(f"{base} is not the base the archive's base.json names: {'; '.join(problems[:5])}")
    receipt = json.loads((export / "receipt.json").read_text(encoding="utf-8"))
    tokenizer = load_tokenizer(export / "tokenizer")
    items, _ = tokenised_examples(tokenizer, export, "eval.jsonl", receipt["maxLength"])
    model = PeftModel.from_pretrained(load_model(base, "cpu"), str(export / "adapter"))
    result = score(model, items, tokenizer.pad_token_id, "cpu")
    return {"meanNll": result["meanNll"], "tokens": result["tokens"], "examples": result["examples"]}


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--base", type=Path, required=True)
    parser.add_argument("--export", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    try:
        result = reproduce(args.base, args.export)
    except NotReproducible as problem:
        print(problem, file=sys.stderr)
        return 1
    args.out.write_text(json.dumps(result), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
