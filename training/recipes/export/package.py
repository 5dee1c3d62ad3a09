"""Job `package`: the verified export archive of a scored tabular model.

Input: {model: tabular.train output folder, receipt: candidate receipt.json (or folder),
        baselineReceipt: baseline receipt.json (or folder), card: {...}}
Output: export.tar.gz holding one folder `<experiment>-<model sha[:12]>/` (deterministic:
sorted entries, zero mtimes and owners, gzip level 1) and export.json, which names that
folder and the file name downloads should use (`<folder>.tar.gz`).
"""

from __future__ import annotations

import hashlib
import inspect
import json
import os
import re
import unicodedata
from pathlib import Path

from trainyard_recipe import BadInput, class_key, emit, sha256_file
from trainyard_recipe.atomic import write_json_atomic

from evaluation.compare import compare_receipts
from recipes.export import RECIPE_VERSION, model_card, verify
from recipes.export.archive import Entry, write_tar_gz

# 2: the files sit in one top folder of the archive (1: at its root)
EXPORT_VERSION = 2
HERE = Path(__file__).resolve().parent
REQUIRED_MODEL_FILES = ("predictor", "feature_schema.json", "training.json", "environment.lock", "requirements.txt")
OPTIONAL_MODEL_FILES = ("leaderboard.json", "feature_importance.json")
CLASS_KEY_SLOT = "# <class_key from trainyard_recipe/classes.py>\n"


def _load_receipt(path, field: str) -> dict:
    if not isinstance(path, str) or not path:
        raise BadInput(f"package input field '{field}' is required", code="missing_field")
    if os.path.isdir(path):
        path = os.path.join(path, "receipt.json")
    try:
        with open(path, encoding="utf-8") as handle:
            return json.load(handle)
    except (OSError, json.JSONDecodeError) as error:
        raise BadInput(f"cannot read {field} {path}: {error}", code="missing_input")


def _check_model(model_dir) -> tuple[str, dict]:
    if not isinstance(model_dir, str) or not os.path.isdir(model_dir):
        raise BadInput(f"package input field 'model' must be a train job's output folder, got {model_dir!r}",
                       code="missing_input")
    missing = [name for name in REQUIRED_MODEL_FILES if not os.path.exists(os.path.join(model_dir, name))]
    if missing:
        raise BadInput(f"model folder {model_dir} lacks {missing}; is it a tabular.train output?", code="missing_input")
    try:
        manifest = verify.verify(model_dir)  # the job output's manifest.json has the same shape as ours
    except verify.VerificationError as error:
        raise BadInput(f"model folder {model_dir} does not match its manifest: {error}", code="manifest_invalid")
    return sha256_file(os.path.join(model_dir, "manifest.json")), manifest


def folder_name(experiment: str | None, model_sha: str) -> str:
    """The archive's one top folder, also its file name without .tar.gz: the experiment's
    name in safe characters plus the trained model's short hash (same model, same name)."""
    text = unicodedata.normalize("NFKD", experiment or "").encode("ascii", "ignore").decode("ascii")  # é -> e
    slug = re.sub(r"[^A-Za-z0-9._-]+", "-", text).strip("-.")[:60].strip("-.") or "model"
    return f"{slug}-{model_sha[:12]}"


def predict_py() -> bytes:
    """predict.py as shipped: the template with class_key's source pasted into its slot. The
    export runs without Trainyard installed, yet must name classes exactly as the recipe did."""
    template = (HERE / "predict_template.py").read_text(encoding="utf-8")
    if template.count(CLASS_KEY_SLOT) != 1:
        raise RuntimeError("predict_template.py must hold the class_key slot exactly once")
    return template.replace(CLASS_KEY_SLOT, inspect.getsource(class_key)).encode("utf-8")


def _entries(model_dir: str, model_manifest: dict, generated: dict) -> tuple[list, dict]:
    """Archive entries (model files from where they lie, generated ones as bytes) and the
    export manifest. Model files keep the sizes and hashes their job manifest recorded,
    which _check_model just verified; the archive is verified once more after writing."""
    wanted = set(REQUIRED_MODEL_FILES[1:] + OPTIONAL_MODEL_FILES)
    entries, listed = [], []
    for item in model_manifest["files"]:
        if item["path"].startswith("predictor/") or item["path"] in wanted:
            entries.append(Entry(item["path"], source=Path(model_dir, *item["path"].split("/"))))
            listed.append({"path": item["path"], "bytes": item["bytes"], "sha256": item["sha256"]})
    for rel, data in generated.items():
        entries.append(Entry(rel, data=data))
        listed.append({"path": rel, "bytes": len(data), "sha256": hashlib.sha256(data).hexdigest()})
    listed.sort(key=lambda entry: entry["path"])
    manifest = {"files": listed, "exportVersion": EXPORT_VERSION}
    entries.append(Entry(verify.MANIFEST, data=json.dumps(manifest, indent=2).encode("utf-8")))
    return entries, manifest


def run_package(ctx, inputs: dict) -> dict:
    emit(ctx, "phase", phase="exporting")
    model_dir = inputs.get("model")
    model_sha, model_manifest = _check_model(model_dir)
    candidate = _load_receipt(inputs.get("receipt"), "receipt")
    baseline = _load_receipt(inputs.get("baselineReceipt"), "baselineReceipt")
    scored_model = (candidate.get("hashes") or {}).get("exportSha256")
    if scored_model and scored_model != model_sha:
        raise BadInput(f"the candidate receipt scored model {scored_model[:12]}…, not this model ({model_sha[:12]}…)",
                       code="receipt_mismatch")
    card = inputs.get("card") or {}
    if not isinstance(card, dict):
        raise BadInput("package input field 'card' must be an object", code="invalid_input")
    comparison = compare_receipts(candidate, baseline)
    with open(os.path.join(model_dir, "training.json"), encoding="utf-8") as handle:
        training = json.load(handle)
    with open(os.path.join(model_dir, "feature_schema.json"), encoding="utf-8") as handle:
        feature_schema = json.load(handle)
    folder = folder_name(card.get("experiment"), model_sha)
    file_name = f"{folder}.tar.gz"
    card_text = model_card.render(training, candidate, baseline, comparison, card, model_sha, file_name, folder,
                                  feature_schema)
    generated = {
        "receipt.json": json.dumps(candidate, indent=2).encode("utf-8"),
        "baseline_receipt.json": json.dumps(baseline, indent=2).encode("utf-8"),
        "MODEL_CARD.md": card_text.encode("utf-8"),
        "predict.py": predict_py(),
        "verify.py": (HERE / "verify.py").read_bytes(),
    }
    entries, manifest = _entries(model_dir, model_manifest, generated)
    archive = ctx.output_dir / "export.tar.gz"
    write_tar_gz(archive, folder, entries, threads=ctx.cpus)
    verify.verify(str(archive))  # what was written reads back and matches, file by file
    manifest_bytes = next(e.data for e in entries if e.path == verify.MANIFEST)
    archive_sha = sha256_file(archive)
    summary = {
        "recipeVersion": RECIPE_VERSION,
        "archive": "export.tar.gz",
        "folder": folder,
        "fileName": file_name,
        "loadingCommands": model_card.loading_commands(file_name, folder),
        "sha256": archive_sha,
        "bytes": archive.stat().st_size,
        "files": len(manifest["files"]) + 1,
        "manifestSha256": hashlib.sha256(manifest_bytes).hexdigest(),
        "modelSha256": model_sha,
        "contractSha256": candidate.get("contractSha256"),
        "comparison": comparison,
    }
    write_json_atomic(ctx.output_dir / "export.json", summary)
    return {"archiveSha256": archive_sha, "bytes": summary["bytes"], "files": summary["files"],
            "comparable": comparison["comparable"], "better": comparison.get("better")}
