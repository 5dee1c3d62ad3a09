"""Job holdout_compare: fine-tunes of one base scored on a reserved holdout of examples that
none of them learnt from, with a paired-bootstrap interval of the difference (issue 32).

Inputs: the base (an import_base output), the holdout as llm_lora holdout_examples wrote it
(eval.jsonl and eval_prompts.txt, line for line) and, per version, its adapter (its export
archive, whose adapter files alone are read, or an adapter folder), the SHA-256 its weights
must have (the version's adapterSha256) and its trained_prompts.txt.

Every holdout example whose normalised prompt any version trained or was evaluated on is
left out for all versions alike, as is one with no answer token within maxLength. The base is
loaded once; each adapter in turn is put on it, scores the kept examples with the training's
masking (template.py) and is taken off again. The metric is the mean NLL per answer token;
the interval resamples whole examples (the same ones for both versions) and recomputes each
version's ratio of summed NLL to summed tokens.

Writes holdout_compare.json. Refuses: missing_input, invalid_input, export_invalid,
too_few_examples.
"""

from __future__ import annotations

import json
import tarfile
from pathlib import Path

from trainyard_recipe import BadInput, JobContext, requires, sha256_file
from trainyard_recipe.atomic import write_json_atomic
from trainyard_recipe.events import phase

from .device import chosen_device, load_model
from .examples import read_conversations, tokenised
from .identity import METRIC
from .inputs import adapter_folder, base_model, folder, integer
from .scoring import score
from .template import load_tokenizer

MIN_EXAMPLES = 5
ADAPTER_FILES = ("adapter_model.safetensors", "adapter_config.json")
PROMPTS_FILE = "eval_prompts.txt"


def _trained_prompts(path_value, version: int) -> set[str]:
    """The hashes a version's trained_prompts.txt lists (its JSON header line first)."""
    path = Path(str(path_value))
    if not path.is_file():
        raise BadInput(f"version {version}: trainedPrompts {path} is not a file", code="missing_input")
    lines = path.read_text(encoding="utf-8").splitlines()
    try:
        header = json.loads(lines[0]) if lines else None
    except json.JSONDecodeError:
        header = None
    if not isinstance(header, dict) or header.get("version") != 1 or header.get("rule") != "normalised prompt":
        raise BadInput(f"version {version}: {path.name} is not a trained_prompts.txt (its first line is not the "
                       "version 1 header)", code="invalid_input")
    return set(lines[1:])


def _adapter(entry: dict, work_dir: Path) -> Path:
    """The version's adapter folder: from its export archive (only the adapter's two files are
    read out of it) or a folder; its weights must hash to the version's adapterSha256."""
    version, path = entry["version"], Path(str(entry.get("adapter")))
    archive = path / "export.tar.gz" if path.is_dir() and (path / "export.tar.gz").is_file() else path
    if archive.is_file():
        dest = work_dir / f"version-{version}"
        dest.mkdir(parents=True)
        try:
            with tarfile.open(archive, "r:gz") as tar:
                for member in tar.getmembers():
                    parts = Path(member.name).parts
                    if member.isfile() and len(parts) == 3 and parts[1] == "adapter" and parts[2] in ADAPTER_FILES:
                        (dest / parts[2]).write_bytes(tar.extractfile(member).read())
        except (tarfile.TarError, EOFError, OSError) as error:
            raise BadInput(f"version {version}: its export archive cannot be read: {error}", code="export_invalid") from None
        path = dest
    elif not path.is_dir():
        raise BadInput(f"version {version}: adapter {path} is neither an export archive nor a folder", code="missing_input")
    try:
        found = adapter_folder(path)
    except BadInput as missing:
        raise BadInput(f"version {version}: {missing}", code="export_invalid") from None
    if sha256_file(found / "adapter_model.safetensors") != entry.get("adapterSha256"):
        raise BadInput(f"version {version}: its adapter's weights do not hash to the version's adapterSha256",
                       code="export_invalid")
    return found


def _versions(job_input: dict) -> list[dict]:
    versions = job_input.get("versions")
    if not isinstance(versions, list) or len(versions) < 2:
        raise BadInput("versions: compare at least two versions", code="invalid_input", details={"field": "versions"})
    numbers = [v.get("version") if isinstance(v, dict) else None for v in versions]
    if not all(isinstance(n, int) and not isinstance(n, bool) and n > 0 for n in numbers) or len(set(numbers)) != len(numbers):
        raise BadInput("versions: each needs a distinct positive version number", code="invalid_input")
    return versions


def paired_interval(nll, tokens, resamples: int, confidence: float, seed: int) -> dict:
    """The second version's mean NLL per answer token minus the first's, on resamples of whole examples."""
    import numpy as np

    rng = np.random.default_rng(seed)
    n = nll.shape[1]
    picks = rng.integers(0, n, size=(resamples, n))
    means = [nll[i][picks].sum(axis=1) / tokens[i][picks].sum(axis=1) for i in (0, 1)]
    tail = (1 - confidence) / 2
    low, high = np.quantile(means[1] - means[0], [tail, 1 - tail])
    estimate = nll[1].sum() / tokens[1].sum() - nll[0].sum() / tokens[0].sum()
    return {"estimate": float(estimate), "low": float(low), "high": float(high), "confidence": confidence,
            "resamples": resamples}


@requires("model", "data", "versions")
def run_holdout_compare(ctx: JobContext, job_input: dict) -> dict:
    model_dir, _ = base_model(folder(job_input, "model"))
    data_dir = folder(job_input, "data")
    versions = _versions(job_input)
    device = chosen_device(job_input)
    max_length = integer(job_input, "maxLength", 512, 16, 32768)
    resamples = integer(job_input, "resamples", 2000, 100, 100_000)
    seed = integer(job_input, "seed", 0, 0)
    confidence = job_input.get("confidence", 0.95)
    if isinstance(confidence, bool) or not isinstance(confidence, (int, float)) or not 0.5 < confidence < 1:
        raise BadInput("confidence must be between 0.5 and 1", code="invalid_input", details={"field": "confidence"})
    if not (data_dir / "eval.jsonl").is_file() or not (data_dir / PROMPTS_FILE).is_file():
        raise BadInput(f"data: {data_dir} is not a holdout_examples output (eval.jsonl and {PROMPTS_FILE})",
                       code="missing_input", details={"field": "data"})
    conversations = read_conversations(data_dir / "eval.jsonl")
    hashes = (data_dir / PROMPTS_FILE).read_text(encoding="utf-8").split()
    if len(hashes) != len(conversations):
        raise BadInput(f"data: {PROMPTS_FILE} has {len(hashes)} lines for {len(conversations)} examples",
                       code="invalid_input", details={"field": "data"})

    seen_by = {}
    seen = [False] * len(hashes)
    for entry in versions:
        trained = _trained_prompts(entry.get("trainedPrompts"), entry["version"])
        overlap = [h in trained for h in hashes]
        seen_by[str(entry["version"])] = sum(overlap)
        seen = [a or b for a, b in zip(seen, overlap)]

    import numpy as np
    import torch
    from peft import PeftModel

    torch.set_num_threads(ctx.cpus)
    tokenizer = load_tokenizer(model_dir)
    items, no_answer_left = tokenised(tokenizer, [c for c, left_out in zip(conversations, seen) if not left_out], max_length)
    if len(items) < MIN_EXAMPLES:
        raise BadInput(f"only {len(items)} holdout examples are unseen by every version and keep an answer token within "
                       f"maxLength (at least {MIN_EXAMPLES} are needed); examples each version learnt from or was "
                       f"evaluated on: {seen_by}", code="too_few_examples")

    adapters = [(entry["version"], _adapter(entry, ctx.work_dir)) for entry in versions]
    model = load_model(model_dir, device)
    nll, tokens, results = [], [], []
    for version, adapter in adapters:
        phase(ctx, "evaluating", model=f"version {version}", examples=len(items))
        tuned = PeftModel.from_pretrained(model, str(adapter))
        scored = score(tuned, items, tokenizer.pad_token_id, device)
        model = tuned.unload()  # the base again, for the next adapter
        nll.append([e["nll"] for e in scored["perExample"]])
        tokens.append([e["tokens"] for e in scored["perExample"]])
        results.append({"version": version, "value": scored["meanNll"]})

    phase(ctx, "comparing")
    difference = paired_interval(np.array(nll), np.array(tokens), resamples, float(confidence), seed)
    out = {
        "version": 1, "metric": METRIC, "direction": "lower", "examples": len(items),
        "excluded": {"total": sum(seen), "byVersion": seen_by, "noAnswerLeft": no_answer_left},
        "results": results,
        "difference": {**difference, "of": [results[0]["version"], results[1]["version"]]},
    }
    write_json_atomic(ctx.output_dir / "holdout_compare.json", out)
    return {"examples": len(items), "excluded": sum(seen), "difference": difference["estimate"]}
