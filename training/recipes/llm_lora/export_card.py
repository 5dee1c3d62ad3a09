"""MODEL_CARD.md of an llm-lora export: the base by hash, the adapter, both receipts."""

from __future__ import annotations


def loading_commands(file_name: str, folder: str) -> list[str]:
    return [f"sha256sum {file_name}", f"tar xzf {file_name}", f"cd {folder}", "python verify.py .",
            "pip install -r requirements.txt", 'python generate.py /path/to/base-model "your question"']


def _score_rows(receipt: dict) -> list[str]:
    rows = ["| | base | base + adapter |", "| --- | --- | --- |",
            f"| mean NLL per answer token | {receipt['base']['meanNll']:.4f} | {receipt['adapter']['meanNll']:.4f} |",
            f"| perplexity | {receipt['base']['perplexity']:.3f} | {receipt['adapter']['perplexity']:.3f} |",
            f"| answer tokens scored | {receipt['base']['tokens']} | {receipt['adapter']['tokens']} |"]
    if match := receipt.get("exactMatch"):
        rows.append(f"| exact match (`{match['pattern']}`, {match['examples']} prompts) | {match['base']:.1%} "
                    f"| {match['adapter']:.1%} |")
    return rows


def render(name: str, base: dict, training: dict | None, receipt: dict, adapter_sha: str, file_name: str,
           folder: str) -> str:
    provenance = (f"dequantized to fp32 from a {base['dequantizedFrom']} GGUF (GGUF sha256 {base['sourceSha256']})"
                  if base["source"] == "gguf" else "a Hugging Face folder, used as is")
    lines = [f"# {name}: a LoRA adapter for {base['name']}", "",
             "## Base model (not in this archive)", "",
             f"- name: {base['name']} ({base['architecture']}, {base['parameters']:,} parameters)",
             f"- snapshot sha256 (every file, listed in base.json): {base['snapshotSha256']}",
             f"- weights: {provenance}",
             f"- chat template: {'the model' + chr(39) + 's own' if base['chatTemplate'] == 'model' else 'Trainyard default (the model has none)'}"
             " (saved in tokenizer/)", ""]
    if training:
        lora, settings = training["lora"], training["settings"]
        lines += ["## Adapter", "",
                  f"- LoRA rank {lora['rank']}, alpha {lora['alpha']}, dropout {lora['dropout']}, "
                  f"modules {lora['targetModules'] if isinstance(lora['targetModules'], str) else ', '.join(lora['targetModules'])}",
                  f"- {training['steps']} steps ({training['stoppedBy']}) on {training['trainExamples']} examples, "
                  f"learning rate {settings['learningRate']}, batch {settings['batchSize']}, max length {settings['maxLength']}, "
                  f"on {training['device']}{' (bf16)' if training['bf16'] else ' (fp32)'}",
                  f"- adapter_model.safetensors sha256: {adapter_sha}", ""]
    verdict = "better than the base" if receipt["betterThanBase"] else "NOT better than the base"
    lines += ["## Evaluation receipt", "",
              f"On {receipt['examples']} held-out examples (eval.jsonl, sha256 {receipt['evalSetSha256'][:12]}…), "
              f"loss on the answer tokens only, scored by {receipt['evaluator']['recipe']} {receipt['evaluator']['recipeVersion']}: the adapter is **{verdict}** "
              "(lower NLL is better).", "", *_score_rows(receipt), "",
              "The export job publishes this archive only after reloading the base and this archive's adapter and "
              "tokenizer in a fresh process and scoring eval.jsonl again on CPU in fp32: the adapter's mean NLL "
              "must match the receipt to 1e-4.", "",
              "## Use it", "", "```", *loading_commands(file_name, folder), "```", "",
              "generate.py checks the base folder against base.json first. To merge the adapter into the base "
              "instead, use Trainyard's merge action (or PEFT's merge_and_unload).", "",
              "## Files", "",
              "- adapter/: adapter_model.safetensors, adapter_config.json (PEFT)",
              "- tokenizer/: the tokenizer and chat template used in training",
              "- base.json: the base model's identity and the SHA-256 of each of its files",
              "- receipt.json, training.json, eval.jsonl: the evaluation, the training record, the held-out examples",
              "- environment.lock (every package of the training environment), requirements.txt (what generate.py needs)",
              "- verify.py: checks every file against manifest.json (`python verify.py .`)", ""]
    return "\n".join(lines)
