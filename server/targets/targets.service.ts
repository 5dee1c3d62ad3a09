/**
 * Training computers: listing, probing, and the one way to send a worker request to a
 * target (`execOn`), which also records whether the worker answered (Target.
 * unreachableSince / lastError) and publishes `target.changed` when that changes.
 */
import { WORKER_PROTOCOL, ZProbeResponse, type TWorkerRequest } from "@/worker/protocol";
import { controllerRuntime, workerBundlePath } from "@/server/controller/runtime";
import type { Db } from "@/server/db/client";
import { badInput, notFound, unavailable } from "@/server/errors";
import { publish } from "@/server/events/bus";
import { outdatedWorkerMessage, workerProtocolOf } from "./compat";
import { ZLocalTargetConfig, type TargetDetailView, type TargetView, type TProbe } from "./targets.schema";
import { targetsRepository, type TargetRow } from "./targets.repository";
import { localTransport, WorkerRefused, WorkerUnreachable, type ResponseOf, type WorkerTransport } from "./transport";

export function toTargetView(t: TargetRow): TargetView {
  return {
    id: t.id,
    name: t.name,
    kind: t.kind,
    revision: t.revision,
    enabled: t.enabled,
    workerId: t.workerId,
    probedAt: t.probedAt?.toISOString() ?? null,
    unreachableSince: t.unreachableSince?.toISOString() ?? null,
    lastError: t.lastError,
    outdatedWorker: outdatedWorkerMessage(t.name, workerProtocolOf(t.probe)),
  };
}

export function parseProbe(json: string | null): TProbe | null {
  if (!json) return null;
  try {
    const parsed = ZProbeResponse.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The transport for a target; the caller never knows whether it is a pipe or SSH. */
export function transportFor(t: TargetRow): WorkerTransport {
  if (t.kind === "local") {
    const rt = controllerRuntime();
    const cfg = ZLocalTargetConfig.parse(JSON.parse(t.config));
    return localTransport({ label: t.name, bundlePath: workerBundlePath(rt), workerHome: cfg.workerHome, timeoutMs: rt.config.workerTimeoutMs });
  }
  throw badInput(`${t.name} is a ${t.kind} computer; only This computer (local) can run jobs in this version.`);
}

export function targetsService(db?: Db) {
  const repo = targetsRepository(db);

  async function requireTarget(id: string): Promise<TargetRow> {
    const t = await repo.find(id);
    if (!t) throw notFound(`There is no training computer with id ${id}.`);
    return t;
  }

  /** Sends one request to the target's worker and records reachability. */
  async function execOn<R extends TWorkerRequest>(t: TargetRow, request: R): Promise<ResponseOf<R["op"]>> {
    try {
      const res = await transportFor(t).exec(request);
      if (await repo.markReachable(t.id)) publish({ type: "target.changed", targetId: t.id });
      return res;
    } catch (err) {
      if (err instanceof WorkerUnreachable) {
        if (await repo.markUnreachable(t.id, new Date(), err.message)) publish({ type: "target.changed", targetId: t.id });
      } else if (await repo.markReachable(t.id)) {
        // It answered (even with a refusal): reachable.
        publish({ type: "target.changed", targetId: t.id });
      }
      throw err;
    }
  }

  async function probe(id: string): Promise<TargetDetailView> {
    const t = await requireTarget(id);
    let res: TProbe;
    try {
      res = await execOn(t, { protocol: WORKER_PROTOCOL, op: "probe" });
    } catch (err) {
      if (err instanceof WorkerUnreachable) throw unavailable(`Could not probe ${t.name}: ${err.message}`);
      if (err instanceof WorkerRefused) {
        await repo.setLastError(t.id, err.message);
        publish({ type: "target.changed", targetId: t.id });
        throw unavailable(`${t.name} refused the probe (${err.code}): ${err.message}`);
      }
      throw err;
    }
    const saved = await repo.saveProbe(t.id, JSON.stringify(res), res.workerId, new Date());
    publish({ type: "target.changed", targetId: t.id });
    return { ...toTargetView(saved), probe: res };
  }

  return {
    requireTarget,
    execOn,
    probe,
    list: async (): Promise<TargetView[]> => (await repo.list()).map(toTargetView),
    get: async (id: string): Promise<TargetDetailView> => {
      const t = await requireTarget(id);
      return { ...toTargetView(t), probe: parseProbe(t.probe) };
    },
    /** Probe when the stored one is missing or older than maxAgeMs. */
    async freshProbe(id: string, maxAgeMs: number): Promise<{ target: TargetRow; probe: TProbe }> {
      const t = await requireTarget(id);
      const stored = parseProbe(t.probe);
      if (stored && t.probedAt && Date.now() - t.probedAt.getTime() < maxAgeMs) return { target: t, probe: stored };
      const fresh = await probe(id);
      return { target: await requireTarget(id), probe: fresh.probe! };
    },
  };
}
