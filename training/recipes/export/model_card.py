"""MODEL_CARD.md text from the training record, the two receipts and the controller's card facts."""

from __future__ import annotations


def _fmt(value) -> str:
    if value is None:
        return "n/a"
    if isinstance(value, float):
        return f"{value:.4f}"
    return str(value)


def _metrics_table(candidate: dict, baseline: dict) -> list:
    names = [n for n in candidate.get("metrics", {}) if n in baseline.get("metrics", {})]
    lines = ["| metric | candidate | baseline |", "| --- | --- | --- |"]
    for name in names:
        mark = " (primary)" if name == candidate.get("primaryMetric") else ""
        lines.append(f"| {name}{mark} | {_fmt(candidate['metrics'][name])} | {_fmt(baseline['metrics'][name])} |")
    return lines


def loading_commands(file_name: str, folder: str) -> list:
    """How to check, unpack and use the export; the controller shows the same commands
    (server/exports/export-names.ts) next to the download, which saves it as file_name."""
    return [f"sha256sum {file_name}", f"tar xzf {file_name}", f"cd {folder}", "python verify.py .",
            "pip install -r requirements.txt", "python predict.py rows.csv > predictions.csv"]


MAX_INPUT_ROWS = 60


def inputs_section(feature_schema: dict | None) -> list:
    """What the model reads and what training saw of it, so a caller knows which values were
    never evaluated (they are accepted: the model extrapolates or treats them as unseen)."""
    features = [f for f in (feature_schema or {}).get("features", []) if f.get("usedByModel", True)]
    if not features:
        return []
    lines = ["## Inputs", "",
             "Values outside these ranges and categories not listed here are accepted, but the model never saw"
             " them in training and they were never evaluated.", "",
             "| column | kind | seen in training |", "|---|---|---|"]
    for f in features[:MAX_INPUT_ROWS]:
        if f.get("kind") == "numeric" and f.get("min") is not None:
            seen = f"{f['min']} to {f['max']}"
        elif f.get("categories"):
            shown = ", ".join(str(c) for c in f["categories"][:8])
            more = len(f["categories"]) > 8 or f.get("categoriesTruncated")
            seen = shown + (", …" if more else "")
        else:
            seen = "—"
        seen = seen.replace("|", "\\|")
        lines.append(f"| {str(f.get('name')).replace('|', chr(92) + '|')} | {f.get('kind')} |"
                     f" {seen}{' (may be missing)' if f.get('nullable') else ''} |")
    if len(features) > MAX_INPUT_ROWS:
        lines.append(f"| … {len(features) - MAX_INPUT_ROWS} more in feature_schema.json | | |")
    return lines + [""]


def render(training: dict, candidate: dict, baseline: dict, comparison: dict, card: dict, model_sha: str,
           file_name: str, folder: str, feature_schema: dict | None = None) -> str:
    resources = card.get("resources") or {}
    hashes = candidate.get("hashes", {})
    if comparison.get("comparable"):
        verdict = ("beats" if comparison["better"] else "does NOT beat") + " the baseline: " + comparison["reason"]
    else:
        verdict = "cannot be compared with the baseline: " + comparison.get("reason", "unknown")
    lines = [
        f"# Model card — {card.get('experiment') or training.get('target')}",
        "",
        f"Project: {card.get('project') or 'n/a'} · dataset: {card.get('datasetName') or 'n/a'}",
        "",
        "## Task",
        "",
        f"- Task: {training['task']}, target column `{training['target']}`",
        f"- Primary metric: {candidate.get('primaryMetric')} ({candidate.get('direction')})"
        + (f", positive class `{candidate.get('positiveClass')}`" if candidate.get("positiveClass") is not None else ""),
        f"- Classes: {', '.join(training['classLabels'])}" if training.get("classLabels") else "- Regression target",
        f"- Features ({len(training.get('features', []))}): {', '.join(training.get('features', []))}",
        "",
        "## Results on the held-out test partition",
        "",
        f"The candidate {verdict}.",
        "",
        *_metrics_table(candidate, baseline),
        "",
        f"Test rows scored: {candidate.get('rows')}. Baseline: training majority class / training mean.",
        "",
        "## Training",
        "",
        f"- AutoGluon {training.get('autogluonVersion')}, preset `{training.get('preset')}`, best model "
        f"`{training.get('bestModel')}` ({training.get('modelsFit')} models fitted)",
        f"- Validation {training.get('metric')}: {_fmt(training.get('validationScore'))}",
        f"- Rows: {training.get('trainRows')} train, {training.get('validationRows')} validation",
        f"- Time: {_fmt(card.get('trainingSeconds') or training.get('wallSeconds'))} s of a "
        f"{_fmt(training.get('timeLimitSeconds'))} s budget; CPUs: {resources.get('cpus', training.get('cpus'))}",
        *[f"- {key}: {value}" for key, value in resources.items() if key != "cpus"],
        "",
        "## Lineage",
        "",
        f"- Data snapshot sha256: `{hashes.get('snapshotSha256') or training.get('snapshotSha256')}`",
        f"- Split contract sha256: `{hashes.get('splitSha256') or training.get('splitSha256')}`",
        f"- Trained model (job output manifest) sha256: `{model_sha}`",
        f"- Evaluation contract sha256: `{candidate.get('contractSha256')}`",
        f"- Evaluator: `{candidate.get('evaluationContract', {}).get('evaluatorVersion')}`",
        "",
        *inputs_section(feature_schema),
        "## Known limits",
        "",
        "- Scores come from one random test partition of this dataset; new data that drifts from it will score differently.",
        "- Inputs must match feature_schema.json (column names and types); values outside the training"
        " ranges or unseen categories are accepted but were never evaluated.",
        "- The predictor is a pickle: load it only after `python verify.py .` passes, and only with the"
        " exact AutoGluon version in environment.lock (`require_version_match`).",
        "- No fairness, calibration or robustness analysis was performed.",
    ]
    if card.get("notes"):
        lines += ["", "## Notes", "", str(card["notes"])]
    lines += ["", "## Loading", "",
              f"Compare the SHA-256 of `{file_name}` with the checksum shown next to its download, unpack it"
              f" (everything lands in `{folder}/`), and let `verify.py` check every file before loading:", "",
              "```", *loading_commands(file_name, folder), "```", ""]
    return "\n".join(lines)
