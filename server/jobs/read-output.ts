/**
 * The only way the server reads a recipe's output: the worker names the file (`fetch`,
 * with the SHA-256 its manifest recorded), the target gives a readable copy (the file
 * itself on This computer, a copy over SSH from a server), the bytes are checked against
 * that hash, and a JSON output is parsed with its schema from contracts/recipes. A file
 * that does not match its contract is an OutputInvalid, never a value read by hand.
 */
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import type { z } from "zod";
import type { RecipeOutputSchema } from "@/contracts/recipes";
import type { Db } from "@/server/db/client";
import { DomainError, unavailable } from "@/server/errors";
import type { Target } from "@/server/targets/target";
import { targetFor } from "@/server/targets/target-for";
import { targetsService } from "@/server/targets/targets.service";
import { WorkerRefused } from "@/server/targets/transport";

export interface OutputJob {
  id: string;
  targetId: string;
  workerJobId: string | null;
  /** A finished job's output hash: its outputs never change, so a read is remembered. */
  outputSha256?: string | null;
}

/** A recipe output that does not parse with its contract (a recipe and controller out of step). */
export class OutputInvalid extends DomainError {
  constructor(
    readonly jobId: string,
    readonly file: string,
    readonly issues: z.core.$ZodIssue[],
  ) {
    const listed = issues.slice(0, 5).map((i) => `${i.path.join(".") || "(file)"}: ${i.message}`);
    super("UNAVAILABLE", `${file} of job ${jobId} does not match its contract (${listed.join("; ")}${issues.length > 5 ? "; …" : ""}).`, {
      reason: "output_invalid",
      jobId,
      file,
      issues,
    });
    this.name = "OutputInvalid";
  }
}

export interface LocatedOutput {
  /** The file's path on the worker's machine. */
  path: string;
  /** What the job's manifest recorded for it. */
  sha256: string;
  bytes: number;
  target: Target;
}

/** Where the worker keeps `file` of the job, and its manifest hash. */
export async function locateOutput(db: Db, job: OutputJob, file: string): Promise<LocatedOutput> {
  if (!job.workerJobId) throw unavailable(`Job ${job.id} has no outputs yet.`);
  const target = targetFor(await targetsService(db).requireTarget(job.targetId), db);
  const res = await target.exec("fetch", { jobId: job.workerJobId, path: file });
  return { path: res.path, sha256: res.sha256, bytes: res.bytes, target };
}

/** The bytes of one output (a table), checked against the job's manifest; at most `maxBytes`. */
export async function readOutputBytes(db: Db, job: OutputJob, file: string, maxBytes = Infinity): Promise<Buffer> {
  const at = await locateOutput(db, job, file);
  if (at.bytes > maxBytes) throw unavailable(`${file} of job ${job.id} is larger than ${maxBytes} bytes.`);
  return at.target.withFile(at.path, async (local) => {
    const data = await readFile(local);
    const actual = createHash("sha256").update(data).digest("hex");
    if (actual !== at.sha256) throw unavailable(`The copy of ${file} from job ${job.id} does not match its manifest.`);
    return data;
  });
}

const REMEMBERED = new Map<string, unknown>();
const REMEMBER_AT_MOST = 200;
/** A JSON output is parsed in memory: larger than this, it is refused instead. */
const MAX_JSON_BYTES = 64 * 1024 * 1024;

async function readJson(db: Db, job: OutputJob, file: string): Promise<unknown> {
  // Each read is a worker call (a process start, more over SSH); the chain reads
  // training.json on every advance after training. Bounded; only a finished job's files.
  const key = job.outputSha256 ? `${job.id}:${job.outputSha256}:${file}` : null;
  if (key && REMEMBERED.has(key)) return REMEMBERED.get(key);
  const text = (await readOutputBytes(db, job, file, MAX_JSON_BYTES)).toString("utf8");
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new OutputInvalid(job.id, file, [{ code: "custom", path: [], message: `not JSON: ${(err as Error).message}`, input: undefined }]);
  }
  if (key) {
    if (REMEMBERED.size >= REMEMBER_AT_MOST) REMEMBERED.delete(REMEMBERED.keys().next().value!);
    REMEMBERED.set(key, value);
  }
  return value;
}

/** A JSON output of the job, hash-checked and parsed with its contract schema. */
export async function readOutput<S extends z.ZodType>(db: Db, job: OutputJob, file: string, schema: S & RecipeOutputSchema): Promise<z.output<S>> {
  const parsed = schema.safeParse(await readJson(db, job, file));
  if (!parsed.success) throw new OutputInvalid(job.id, file, parsed.error.issues);
  return parsed.data;
}

/**
 * readOutput for a file a job writes only sometimes (feature_importance.json): null when
 * the job's manifest has no such file. Every other failure is raised, as for readOutput.
 */
export async function readOptionalOutput<S extends z.ZodType>(db: Db, job: OutputJob, file: string, schema: S & RecipeOutputSchema): Promise<z.output<S> | null> {
  try {
    return await readOutput(db, job, file, schema);
  } catch (err) {
    if (err instanceof WorkerRefused && err.code === "not_found") return null;
    throw err;
  }
}
