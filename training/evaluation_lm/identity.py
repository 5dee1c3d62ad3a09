"""Who scored, and what makes two LM receipts comparable.

The evaluator version covers every module of this package (template and masking included)
and the environment's pinned requirements: changing how a token is masked or scored, or
torch's version, makes a new evaluator. The contract names everything a comparison of two
adapters needs to be equal: the evaluation set, the base, maxLength, the chat template and
masking, the metric and the evaluator. Hashing is the tabular evaluator's (canonical JSON).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from evaluation.evaluator import contract_sha256

from . import RECIPE_NAME, RECIPE_VERSION

PACKAGE_DIR = Path(__file__).resolve().parent
# Prompt tokens (rendered with add_generation_prompt, tokenised apart from the answer) are
# label -100; every answer token up to maxLength is scored. Renamed when template.py's rule changes.
MASKING = "answer-tokens-only/1"
METRIC = "mean_nll_per_answer_token"


def requirements_file() -> Path:
    recipe = json.loads((PACKAGE_DIR / "recipe.json").read_text(encoding="utf-8"))
    return (PACKAGE_DIR / recipe["requirements"]).resolve()


def evaluator_identity() -> dict:
    files = {p.name: p for p in sorted(PACKAGE_DIR.glob("*.py"))}
    files["requirements.txt"] = requirements_file()
    file_hashes = {name: hashlib.sha256(path.read_bytes()).hexdigest() for name, path in files.items()}
    listing = "".join(f"{name}\0{digest}\n" for name, digest in sorted(file_hashes.items()))
    code_sha = hashlib.sha256(listing.encode("utf-8")).hexdigest()
    return {"recipe": RECIPE_NAME, "recipeVersion": RECIPE_VERSION, "codeSha256": code_sha, "files": file_hashes,
            "version": f"{RECIPE_NAME}@{RECIPE_VERSION}+sha256:{code_sha}"}


def evaluation_contract(*, eval_sha: str, base_sha: str, max_length: int, template_sha: str,
                        evaluator_version: str) -> tuple[dict, str]:
    """(contract, its SHA-256): receipts with equal hashes scored the same tokens the same way."""
    contract = {"metric": METRIC, "direction": "lower", "evalSetSha256": eval_sha, "baseSnapshotSha256": base_sha,
                "maxLength": max_length, "masking": MASKING, "chatTemplateSha256": template_sha,
                "evaluatorVersion": evaluator_version}
    return contract, contract_sha256(contract)
