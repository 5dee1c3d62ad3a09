"""Job `package`: the verified export archive of a scored tabular model.

Input: {model: tabular.train output folder, receipt: candidate receipt.json (or folder),
        baselineReceipt: baseline receipt.json (or folder), card: {...}}
Output: export.tar.gz (deterministic: sorted entries, zero mtimes and owners) and export.json.
"""

from __future__ import annotations

import gzip
import io
import json
import os
import shutil
import tarfile
from pathlib import Path

from trainyard_recipe import BadInput, emit, sha256_file
from trainyard_recipe.atomic import write_json_atomic
from trainyard_recipe.manifest import build_manifest

from evaluation.compare import compare_receipts
from recipes.export import RECIPE_VERSION, model_card, verify

HERE = Path(__file__).resolve().parent
REQUIRED_MODEL_FILES = ("predictor", "feature_schema.json", "training.json", "environment.lock", "requirements.txt")
OPTIONAL_MODEL_FILES = ("leaderboard.json", "feature_importance.json")


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


def _check_model(model_dir) -> str:
    if not isinstance(model_dir, str) or not os.path.isdir(model_dir):
        raise BadInput(f"package input field 'model' must be a train job's output folder, got {model_dir!r}",
                       code="missing_input")
    missing = [name for name in REQUIRED_MODEL_FILES if not os.path.exists(os.path.join(model_dir, name))]
    if missing:
        raise BadInput(f"model folder {model_dir} lacks {missing}; is it a tabular.train output?", code="missing_input")
    try:
        verify.verify(model_dir)  # the job output's manifest.json has the same shape as ours
    except verify.VerificationError as error:
        raise BadInput(f"model folder {model_dir} does not match its manifest: {error}", code="manifest_invalid")
    return sha256_file(os.path.join(model_dir, "manifest.json"))


def _stage(model_dir: str, stage: Path, candidate: dict, baseline: dict, card_text: str) -> None:
    shutil.rmtree(stage, ignore_errors=True)
    stage.mkdir(parents=True)
    shutil.copytree(os.path.join(model_dir, "predictor"), stage / "predictor")
    for name in REQUIRED_MODEL_FILES[1:] + OPTIONAL_MODEL_FILES:
        if os.path.isfile(os.path.join(model_dir, name)):
            shutil.copyfile(os.path.join(model_dir, name), stage / name)
    (stage / "receipt.json").write_text(json.dumps(candidate, indent=2), encoding="utf-8")
    (stage / "baseline_receipt.json").write_text(json.dumps(baseline, indent=2), encoding="utf-8")
    (stage / "MODEL_CARD.md").write_text(card_text, encoding="utf-8")
    shutil.copyfile(HERE / "predict_template.py", stage / "predict.py")
    shutil.copyfile(HERE / "verify.py", stage / "verify.py")
    for path in stage.rglob("*"):  # copies of a read-only store stay read-only otherwise
        path.chmod(0o755 if path.is_dir() else 0o644)
    manifest = build_manifest(stage)
    manifest["exportVersion"] = 1
    (stage / "manifest.json").write_text(json.dumps(manifest, indent=2), encoding="utf-8")


def _write_archive(stage: Path, archive_path: Path) -> None:
    """Same inputs, same bytes: entries sorted, owners and mtimes zeroed, gzip mtime 0."""
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for path in sorted(stage.rglob("*"), key=lambda p: p.relative_to(stage).as_posix()):
            info = tar.gettarinfo(str(path), arcname=path.relative_to(stage).as_posix())
            info.uid = info.gid = 0
            info.uname = info.gname = ""
            info.mtime = 0
            info.mode = 0o755 if path.is_dir() else 0o644
            if path.is_dir():
                tar.addfile(info)
            else:
                with open(path, "rb") as handle:
                    tar.addfile(info, handle)
    with open(archive_path, "wb") as out, gzip.GzipFile(filename="", mode="wb", fileobj=out, mtime=0) as gz:
        gz.write(raw.getvalue())


def run_package(ctx, inputs: dict) -> dict:
    emit(ctx, "phase", phase="exporting")
    model_dir = inputs.get("model")
    model_sha = _check_model(model_dir)
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
    card_text = model_card.render(training, candidate, baseline, comparison, card, model_sha)
    stage = ctx.work_dir / "export"
    _stage(model_dir, stage, candidate, baseline, card_text)
    verify.verify(str(stage))
    archive = ctx.output_dir / "export.tar.gz"
    _write_archive(stage, archive)
    manifest = verify.verify(str(archive))
    manifest_sha = sha256_file(stage / "manifest.json")
    shutil.rmtree(stage, ignore_errors=True)
    archive_sha = sha256_file(archive)
    summary = {
        "recipeVersion": RECIPE_VERSION,
        "archive": "export.tar.gz",
        "sha256": archive_sha,
        "bytes": archive.stat().st_size,
        "files": len(manifest["files"]) + 1,
        "manifestSha256": manifest_sha,
        "modelSha256": model_sha,
        "contractSha256": candidate.get("contractSha256"),
        "comparison": comparison,
    }
    write_json_atomic(ctx.output_dir / "export.json", summary)
    return {"archiveSha256": archive_sha, "bytes": summary["bytes"], "files": summary["files"],
            "comparable": comparison["comparable"], "better": comparison.get("better")}
