"""Job merge (an explicit action, not part of the default chain): base + adapter -> one model.

PEFT's merge_and_unload folds the LoRA weights into the base's linear layers; the result is
saved in Hugging Face format (fp32 safetensors) with the adapter's tokenizer and chat
template, so it loads and answers like base + adapter without PEFT.
Output: model/ and merged.json (the new snapshot hash, and the base and adapter it came from).
"""

from __future__ import annotations

from trainyard_recipe import JobContext, requires
from trainyard_recipe.atomic import write_json_atomic
from trainyard_recipe.events import phase

from .artifacts import adapter_dir, adapter_sha256, identity, read_base
from .fields import existing_path
from .model_folder import resolve_model_dir, snapshot
from .setup import load_model
from evaluation_lm.template import load_tokenizer, template_source


@requires("model", "adapter")
def run_merge(ctx: JobContext, job_input: dict) -> dict:
    import torch
    from peft import PeftModel

    torch.set_num_threads(ctx.cpus)
    model_root = existing_path(job_input, "model")
    model_dir = resolve_model_dir(model_root)
    adapter = adapter_dir(existing_path(job_input, "adapter"))
    phase(ctx, "merging")
    merged = PeftModel.from_pretrained(load_model(model_dir, "cpu"), str(adapter)).merge_and_unload()
    out = ctx.output_dir / "model"
    merged.save_pretrained(str(out))
    load_tokenizer(adapter).save_pretrained(str(out))
    base = read_base(model_root)
    snap = snapshot(out)
    summary = {"version": 1, "name": f"{base['name'] if base else model_dir.name} + adapter "
                                      f"{adapter_sha256(adapter)[:12]}",
               "snapshotSha256": snap["snapshotSha256"], "architecture": type(merged).__name__,
               "parameters": sum(p.numel() for p in merged.parameters()), "chatTemplate": template_source(out),
               "mergedFrom": {"base": identity(base), "baseSnapshotSha256": snapshot(model_dir)["snapshotSha256"]
                              if base is None else base["snapshotSha256"], "adapterSha256": adapter_sha256(adapter)},
               "files": snap["files"]}
    write_json_atomic(ctx.output_dir / "merged.json", summary)
    return {"parameters": summary["parameters"], "snapshotSha256": summary["snapshotSha256"]}
