// `control`: one JSON request in, one JSON response out. Checks size, JSON, protocol
// number and op before the op's own schema, so a mismatch is always a typed error.
import { REQUEST_SCHEMAS, MAX_REQUEST_BYTES, WORKER_PROTOCOL, type WorkerOp } from "../../contracts/worker/requests";
import { loadConfig } from "./config";
import { WorkerError } from "./errors";
import { Home } from "./home";
import type { Ctx } from "./ops/context";
import { gc } from "./ops/gc";
import { cancel, inspect, list, logs } from "./ops/jobs";
import { prepare } from "./ops/prepare";
import { probe } from "./ops/probe";
import { importFile } from "./ops/import";
import { artifacts, fetchOutput, peek, put } from "./ops/store";
import { submit } from "./ops/submit";

type Handler = (ctx: Ctx, req: never) => unknown;
const HANDLERS: Record<WorkerOp, Handler> = {
  probe: probe as Handler,
  prepare: prepare as Handler,
  put: put as Handler,
  submit: submit as Handler,
  inspect: inspect as Handler,
  list: list as Handler,
  logs: logs as Handler,
  cancel: cancel as Handler,
  artifacts: artifacts as Handler,
  fetch: fetchOutput as Handler,
  peek: peek as Handler,
  import: importFile as Handler,
  gc: gc as Handler,
};

function parseRequest(raw: Buffer): { op: WorkerOp; req: unknown } {
  if (raw.length > MAX_REQUEST_BYTES) throw new WorkerError("bad_request", `request is ${raw.length} bytes; the limit is ${MAX_REQUEST_BYTES}`);
  let json: unknown;
  try {
    json = JSON.parse(raw.toString("utf8"));
  } catch (err) {
    throw new WorkerError("bad_request", `request is not valid JSON: ${(err as Error).message}`);
  }
  if (!json || typeof json !== "object" || Array.isArray(json)) throw new WorkerError("bad_request", "request must be a JSON object");
  const { protocol, op } = json as { protocol?: unknown; op?: unknown };
  if (protocol !== WORKER_PROTOCOL) {
    throw new WorkerError("protocol_mismatch", `request speaks protocol ${JSON.stringify(protocol)}, this worker speaks ${WORKER_PROTOCOL}`, {
      workerProtocol: WORKER_PROTOCOL,
      requestProtocol: protocol ?? null,
    });
  }
  if (typeof op !== "string" || !(op in REQUEST_SCHEMAS)) {
    throw new WorkerError("unknown_op", `unknown op ${JSON.stringify(op)}; known: ${Object.keys(REQUEST_SCHEMAS).join(", ")}`);
  }
  const parsed = REQUEST_SCHEMAS[op as WorkerOp].safeParse(json);
  if (!parsed.success) throw new WorkerError("bad_request", `invalid ${op} request: ${parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ")}`, parsed.error.issues);
  return { op: op as WorkerOp, req: parsed.data };
}

export async function control(homeArg: string, raw: Buffer): Promise<Record<string, unknown>> {
  try {
    const { op, req } = parseRequest(raw);
    const cfg = loadConfig(homeArg);
    const home = new Home(cfg);
    home.ensure();
    const result = await HANDLERS[op]({ cfg, home }, req as never);
    return { ok: true, protocol: WORKER_PROTOCOL, ...(result as object) };
  } catch (err) {
    if (err instanceof WorkerError) {
      return { ok: false, protocol: WORKER_PROTOCOL, error: { code: err.code, message: err.message, ...(err.details !== undefined ? { details: err.details } : {}) } };
    }
    const e = err as NodeJS.ErrnoException;
    const code = e.code === "ENOSPC" ? "disk_full" : "internal";
    return { ok: false, protocol: WORKER_PROTOCOL, error: { code, message: `worker error: ${e.message ?? String(err)}` } };
  }
}
