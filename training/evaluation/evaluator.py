"""Who evaluated: the recipe version plus the SHA-256 of the code that computes the numbers.

Two receipts are comparable only when their evaluator versions are equal (DESIGN.md,
"Evaluation contract"), so the version covers every module of this package and its
pinned requirements: changing a metric's code or scikit-learn's version makes a new
evaluator.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from evaluation import RECIPE_NAME, RECIPE_VERSION

PACKAGE_DIR = Path(__file__).resolve().parent


def code_files() -> list[Path]:
    """The evaluator's own files: its modules and its lock; tests and docs are not code."""
    files = sorted(p for p in PACKAGE_DIR.glob("*.py"))
    files.append(PACKAGE_DIR / "requirements.txt")
    return files


def evaluator_identity() -> dict:
    file_hashes = {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in code_files()}
    listing = "".join(f"{name}\0{digest}\n" for name, digest in sorted(file_hashes.items()))
    code_sha = hashlib.sha256(listing.encode("utf-8")).hexdigest()
    return {
        "recipe": RECIPE_NAME,
        "recipeVersion": RECIPE_VERSION,
        "codeSha256": code_sha,
        "files": file_hashes,
        "version": f"{RECIPE_NAME}@{RECIPE_VERSION}+sha256:{code_sha}",
    }


def canonical_json(value) -> bytes:
    """The bytes hashed for a contract: sorted keys, no spaces, UTF-8."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")


def contract_sha256(contract: dict) -> str:
    return hashlib.sha256(canonical_json(contract)).hexdigest()
