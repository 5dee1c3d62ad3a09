"""Job export: the verified archive of a trained adapter, like the tabular export's.

Input: model (import_base output), adapter (train output), receipt (the trusted evaluator's
output: evaluation-lm score of this adapter), checks (check_data output: its eval.jsonl is the
one the receipt scored).
Archive (export.tar.gz, one top folder `<name>-<adapter sha[:12]>/`, deterministic, with
manifest.json and verify.py from the tabular export): adapter/, tokenizer/ (with the chat
template), base.json (the base's identity; its weights are not included), receipt.json,
training.json, eval.jsonl, environment.lock, requirements.txt, MODEL_CARD.md, generate.py.
Verification: the archive is read back against its manifest, unpacked, and a fresh Python
process (reproduce.py) reloads the base and the unpacked adapter and tokenizer and scores
eval.jsonl again on CPU in fp32; its mean NLL must match the receipt's to 1e-4, else the job
fails with export_not_reproducible. Writes export.json and verification.json.
Refuses: missing_input, adapter_mismatch, receipt_mismatch.
"""

from __future__ import annotations

import hashlib
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from importlib import metadata
from pathlib import Path

from trainyard_recipe import BadInput, JobContext, requires, sha256_file
from trainyard_recipe.atomic import write_json_atomic
from trainyard_recipe.events import phase

from recipes.export import verify
from recipes.export.archive import Entry, write_tar_gz
from recipes.export.package import folder_name

from . import RECIPE_VERSION, export_card
from .artifacts import ADAPTER_CONFIG, ADAPTER_WEIGHTS, adapter_dir, adapter_sha256, identity, read_base
from .fields import existing_path
from .model_folder import resolve_model_dir
from .setup import check_data_dir

HERE = Path(__file__).resolve().parent
TRAINING_DIR = HERE.parents[1]
TOLERANCE = 1e-4
EXPORT_VERSION = 1
# What generate.py imports, pinned to the versions the adapter was trained and verified with.
RUNTIME = ("torch", "transformers", "peft", "accelerate", "safetensors", "tokenizers", "jinja2", "numpy")
SKIPPED = {"README.md"}  # PEFT's generated placeholder card; MODEL_CARD.md is the card


def _json_file(path: Path, name: str, field: str) -> dict:
    target = path / name if path.is_dir() else path
    try:
        return json.loads(target.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as exc:
        raise BadInput(f"{field}: cannot read {target}: {exc}", code="missing_input", details={"field": field}) from None


def environment_lock() -> bytes:
    names = sorted({(d.metadata["Name"] or "").lower(): d.version for d in metadata.distributions()}.items())
    lines = [f"# python {platform.python_version()} on {platform.system()} {platform.machine()}"]
    return ("\n".join(lines + [f"{name}=={version}" for name, version in names if name]) + "\n").encode("utf-8")


def requirements() -> bytes:
    return "".join(f"{name}=={metadata.version(name)}\n" for name in RUNTIME).encode("utf-8")


def _listing(entry: Entry) -> dict:
    if entry.data is not None:
        return {"path": entry.path, "bytes": len(entry.data), "sha256": hashlib.sha256(entry.data).hexdigest()}
    return {"path": entry.path, "bytes": entry.source.stat().st_size, "sha256": sha256_file(entry.source)}


def _entries(adapter: Path, checks: Path, training: Path | None, generated: dict[str, bytes]) -> list[Entry]:
    entries = [Entry(f"adapter/{ADAPTER_WEIGHTS}", source=adapter / ADAPTER_WEIGHTS),
               Entry(f"adapter/{ADAPTER_CONFIG}", source=adapter / ADAPTER_CONFIG),
               Entry("eval.jsonl", source=checks / "eval.jsonl")]
    entries += [Entry(f"tokenizer/{p.name}", source=p) for p in sorted(adapter.iterdir())
                if p.is_file() and p.name not in {ADAPTER_WEIGHTS, ADAPTER_CONFIG, *SKIPPED}]
    if training is not None:
        entries.append(Entry("training.json", source=training))
    entries += [Entry(path, data=data) for path, data in generated.items()]
    listed = sorted((_listing(e) for e in entries), key=lambda item: item["path"])
    manifest = json.dumps({"files": listed, "exportVersion": EXPORT_VERSION}, indent=2).encode("utf-8")
    return entries + [Entry(verify.MANIFEST, data=manifest)]


def _reproduce(ctx: JobContext, model_dir: Path, unpacked: Path) -> dict:
    """The unpacked archive scored again in a new interpreter: nothing of this process is reused."""
    out = ctx.work_dir / "reproduced.json"
    env = {**os.environ, "PYTHONPATH": str(TRAINING_DIR), "TRAINYARD_CPUS": str(ctx.cpus)}
    proc = subprocess.run([sys.executable, "-m", "recipes.llm_lora.reproduce", "--base", str(model_dir),
                           "--export", str(unpacked), "--out", str(out)], env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        raise BadInput(f"the unpacked archive could not be reloaded and scored: {proc.stderr.strip()[-1500:]}",
                       code="export_not_reproducible")
    return json.loads(out.read_text(encoding="utf-8"))


@requires("model", "adapter", "receipt", "checks")
def run_export(ctx: JobContext, job_input: dict) -> dict:
    started = time.monotonic()
    model_root = existing_path(job_input, "model")
    model_dir = resolve_model_dir(model_root)
    base = read_base(model_root)
    if base is None:
        raise BadInput(f"model: {model_root} is not an import_base output (no base.json)", code="missing_input",
                       details={"field": "model"})
    adapter_root = existing_path(job_input, "adapter")
    adapter = adapter_dir(adapter_root)
    training_path = adapter_root / "training.json" if (adapter_root / "training.json").is_file() else None
    training = json.loads(training_path.read_text(encoding="utf-8")) if training_path else None
    trained_on = ((training or {}).get("base") or {}).get("snapshotSha256")
    if trained_on and trained_on != base["snapshotSha256"]:
        raise BadInput(f"the adapter was trained on base {trained_on[:12]}…, not on this model "
                       f"({base['snapshotSha256'][:12]}…)", code="adapter_mismatch")
    receipt = _json_file(existing_path(job_input, "receipt"), "receipt.json", "receipt")
    checks = check_data_dir(existing_path(job_input, "checks"))
    if receipt.get("evalSetSha256") != sha256_file(checks / "eval.jsonl"):
        raise BadInput("the receipt scored another evaluation set than this check_data output's eval.jsonl",
                       code="receipt_mismatch")
    adapter_sha = adapter_sha256(adapter)
    if receipt.get("adapterSha256") != adapter_sha:
        raise BadInput("the receipt judged another adapter than this train output's", code="receipt_mismatch")

    phase(ctx, "exporting")
    name = job_input.get("name") or base["name"]
    folder = folder_name(name, adapter_sha)
    file_name = f"{folder}.tar.gz"
    generated = {
        "base.json": json.dumps(base, indent=2).encode("utf-8"),
        "receipt.json": json.dumps(receipt, indent=2).encode("utf-8"),
        "MODEL_CARD.md": export_card.render(name, base, training, receipt, adapter_sha, file_name, folder).encode(),
        "generate.py": (HERE / "generate_example.py").read_bytes(),
        "verify.py": Path(verify.__file__).read_bytes(),
        "environment.lock": environment_lock(),
        "requirements.txt": requirements(),
    }
    entries = _entries(adapter, checks, training_path, generated)
    archive = ctx.output_dir / "export.tar.gz"
    write_tar_gz(archive, folder, entries, threads=ctx.cpus)
    manifest = verify.verify(str(archive))  # what was written reads back and matches, file by file

    phase(ctx, "verifying")
    with tempfile.TemporaryDirectory(dir=ctx.work_dir) as tmp:
        unpacked = Path(tmp) / folder
        verify.extract(str(archive), str(unpacked))
        reproduced = _reproduce(ctx, model_dir, unpacked)
    expected = receipt["adapter"]["meanNll"]
    difference = abs(reproduced["meanNll"] - expected)
    if difference > TOLERANCE or reproduced["tokens"] != receipt["adapter"]["tokens"]:
        raise BadInput(f"the reloaded export scores mean NLL {reproduced['meanNll']:.6f} on {reproduced['tokens']} "
                       f"answer tokens, the receipt {expected:.6f} on {receipt['adapter']['tokens']}: the archive "
                       "does not reproduce its evaluation, so it is not published", code="export_not_reproducible",
                       details={"reproduced": reproduced, "receipt": receipt["adapter"]})
    verification = {"version": 1, "verified": True, "device": "cpu", "dtype": "float32",
                    "examples": reproduced["examples"], "tokens": reproduced["tokens"], "receiptMeanNll": expected,
                    "reproducedMeanNll": reproduced["meanNll"], "absoluteDifference": difference,
                    "tolerance": TOLERANCE, "seconds": round(time.monotonic() - started, 2)}
    write_json_atomic(ctx.output_dir / "verification.json", verification)
    manifest_bytes = next(e.data for e in entries if e.path == verify.MANIFEST)
    summary = {"recipeVersion": RECIPE_VERSION, "archive": "export.tar.gz", "folder": folder, "fileName": file_name,
               "loadingCommands": export_card.loading_commands(file_name, folder), "sha256": sha256_file(archive),
               "bytes": archive.stat().st_size, "files": len(manifest["files"]) + 1,
               "manifestSha256": hashlib.sha256(manifest_bytes).hexdigest(), "adapterSha256": adapter_sha,
               "base": identity(base), "betterThanBase": receipt["betterThanBase"]}
    write_json_atomic(ctx.output_dir / "export.json", summary)
    return {"archiveSha256": summary["sha256"], "bytes": summary["bytes"], "reproducedMeanNll": reproduced["meanNll"],
            "absoluteDifference": difference}
