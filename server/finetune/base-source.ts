/**
 * The base model is checked where it is before an experiment is created, so a wrong path is
 * refused with what to do instead of failing minutes later in a job: a path must lie inside
 * the training computer's allowed roots (its worker's `peek` checks them, lexically and after
 * realpath, on This computer and on a server alike) and name a model folder (with a
 * config.json) or a GGUF file (its magic bytes); an uploaded model's blobs must be on This
 * computer (the chain copies them to a server). The import_base job then checks the model
 * itself (architecture, tokenizer, weights).
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { WORKER_PROTOCOL } from "@/contracts/worker";
import type { Db } from "@/server/db/client";
import { badInput, unavailable } from "@/server/errors";
import { blobPath, localTarget, workerHomeOf } from "@/server/datasets/local-store";
import { settingsService } from "@/server/settings/settings.service";
import type { TargetRow } from "@/server/targets/targets.repository";
import { targetsService } from "@/server/targets/targets.service";
import { WorkerRefused, WorkerUnreachable } from "@/server/targets/transport";
import { baseBlobs } from "@/server/experiments/pipelines/lora";
import type { TBaseModelSource } from "./finetune.schema";

const isGguf = (p: string) => p.toLowerCase().endsWith(".gguf");

function refusal(err: unknown, base: string, target: TargetRow): Error {
  if (err instanceof WorkerUnreachable) return unavailable(`${target.name} did not answer while checking the base model ${base}: ${err.message}`);
  if (!(err instanceof WorkerRefused)) return err as Error;
  switch (err.code) {
    case "path_not_allowed": {
      // The worker names its allowed folders when the path is outside them (a symlink or a credential folder says otherwise).
      const roots = (err.details as { allowedRoots?: unknown } | undefined)?.allowedRoots;
      const words = Array.isArray(roots)
        ? roots.length
          ? `${base} is outside the allowed folders of ${target.name} (${roots.join(", ")})`
          : `${target.name} has no allowed folders, so the base model ${base} cannot be read there`
        : `${target.name} refused the base model ${base}: ${err.message}`;
      return badInput(`${words}. Add its folder to the computer's allowed folders (Settings → Data on This computer), or upload the model instead.`, { code: "path_not_allowed" });
    }
    case "not_found":
      return isGguf(base)
        ? badInput(`There is no file ${base} on ${target.name}. The path is on the training computer, not on yours.`, { code: "not_found" })
        : badInput(`${base} on ${target.name} is not a model folder: it has no config.json. Choose the folder holding config.json, the weights (*.safetensors) and the tokenizer, or a .gguf file.`, { code: "not_a_model" });
    case "not_a_regular_file":
      return badInput(`${base} on ${target.name} is not a model folder or a .gguf file (${err.message}).`, { code: "not_a_model" });
    default:
      return badInput(`${target.name} refused the base model ${base}: ${err.message}`, { code: err.code });
  }
}

async function checkPath(db: Db, target: TargetRow, p: string): Promise<void> {
  // This computer's allowed folders are the owner's setting: reading it makes its worker's
  // config follow it (as registering a file does), so its `peek` below refuses what the
  // setting does; a server's allowed folders are its own worker's.
  await settingsService(db).get();
  const probe = isGguf(p) ? p : path.posix.join(p, "config.json");
  let lines: string[];
  try {
    const res = await targetsService(db).execOn(target, { protocol: WORKER_PROTOCOL, op: "peek", path: probe, maxRows: 1, maxBytes: isGguf(p) ? 4 : 64 * 1024 });
    lines = res.lines;
  } catch (err) {
    throw refusal(err, p, target);
  }
  if (isGguf(p) && !(lines[0] ?? "").startsWith("GGUF")) {
    throw badInput(`${p} on ${target.name} is not a GGUF file (it does not start with the GGUF magic bytes).`, { code: "not_a_model" });
  }
}

/** Refuses a base model that cannot be imported on `target`, with what to do instead. */
export async function checkBaseSource(db: Db, target: TargetRow, base: TBaseModelSource): Promise<void> {
  if (base.kind === "path") return checkPath(db, target, base.path);
  const home = workerHomeOf(await localTarget(db));
  const missing = baseBlobs(base).filter((sha) => !existsSync(blobPath(home, sha)));
  if (missing.length) {
    const what = base.kind === "gguf_upload" ? base.fileName : `${missing.length} file(s) of ${base.name}`;
    throw badInput(`The uploaded base model (${what}) is not stored on This computer: upload it again (${missing.map((s) => s.slice(0, 12)).join(", ")}…).`, { code: "base_not_uploaded" });
  }
}
