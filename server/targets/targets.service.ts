/**
 * Training computers: listing, probing, and the one way to send a worker request to a
 * target (`execOn`), which also records whether the worker answered (Target.
 * unreachableSince / lastError, and a refused host key) and publishes `target.changed`
 * when that changes.
 */
import { existsSync } from "node:fs";
import { WORKER_PROTOCOL, ZProbeResponse, type TWorkerRequest } from "@/contracts/worker";
import { controllerRuntime, workerBundlePath } from "@/server/config/runtime";
import { getDb, type Db } from "@/server/db/client";
import { parseStoredJson } from "@/server/db/stored-json";
import { notFound, unavailable } from "@/server/errors";
import { publish } from "@/server/events/bus";
import { outdatedWorkerMessage, workerProtocolOf } from "./compat";
import { hostKeyName } from "./ssh/known-hosts";
import { expandHome, HostKeyRejected } from "./ssh/ssh-connection";
import { ZHostKeyProblem, ZSshTargetConfig } from "./ssh/ssh-target.schema";
import { sshTargetTransport } from "./ssh/ssh-target";
import { ZLocalTargetConfig, type TargetDetailView, type TargetView, type TConnectionView, type THostKeyProblemView, type TProbe } from "./targets.schema";
import { targetsRepository, type TargetRow } from "./targets.repository";
import { localTransport, WorkerRefused, WorkerUnreachable, type ResponseOf, type WorkerTransport } from "./transport";

function connectionOf(t: TargetRow): TConnectionView | null {
  const c = t.kind === "ssh" ? parseStoredJson(ZSshTargetConfig, t.config) : null;
  if (!c) return null;
  // `ssh -G` lists OpenSSH's default key names whether they exist or not: show the real ones.
  const existing = c.endpoint.identityFiles.filter((f) => existsSync(expandHome(f)));
  const keyFiles = existing.length || c.alias ? existing : c.endpoint.identityFiles;
  return { alias: c.alias, host: c.endpoint.host, port: c.endpoint.port, user: c.endpoint.user, keyFiles, workerDir: c.workerDir, nodePath: c.nodePath };
}

function hostKeyProblemOf(t: TargetRow): THostKeyProblemView | null {
  const problem = parseStoredJson(ZHostKeyProblem, t.hostKeyProblem);
  if (!problem) return null;
  const { key: _key, ...view } = problem;
  return view;
}

/** What the pages say about a computer of each kind, so that they never branch on it. */
function presentationOf(kind: string): Pick<TargetView, "thisComputer" | "description" | "notCheckedHint" | "dataNote" | "setUpOverSsh"> {
  if (kind === "local") {
    return { thisComputer: true, description: "The computer this server runs on.", notCheckedHint: "Not checked yet. Use “Check again” to ask its worker what it has.", dataNote: null, setUpOverSsh: false };
  }
  if (kind === "ssh") {
    return {
      thisComputer: false,
      description: "A server reached over SSH.",
      notCheckedHint: "Not checked yet. Use Test access, then Set up to install the worker there.",
      dataNote: "Data is copied to the server over SSH before training.",
      setUpOverSsh: true,
    };
  }
  if (kind === "slurm") {
    return {
      thisComputer: false,
      description: "A Slurm cluster: this computer is its login node, and each training runs as a Slurm job on a compute node.",
      notCheckedHint: "Not checked yet. Use “Check again” to ask Slurm what the cluster has.",
      dataNote: "Data is copied into the cluster's worker home, which the compute nodes read.",
      setUpOverSsh: false,
    };
  }
  return { thisComputer: false, description: `Reached over ${kind}.`, notCheckedHint: "Not checked yet. Use “Check again” to ask its worker what it has.", dataNote: null, setUpOverSsh: false };
}

/**
 * The probe running now per computer, when it started and which revision of the computer's
 * configuration it asks (a changed address must not be answered by the old one). Global,
 * because the route handlers and the reconcile loop each have their own copy of this module.
 */
const PROBES = Symbol.for("trainyard.probesInFlight");
type ProbeInFlight = { startedAt: number; revision: Promise<number | null>; answer: Promise<TargetDetailView> };
const probesInFlight = () => ((globalThis as { [PROBES]?: Map<string, ProbeInFlight> })[PROBES] ??= new Map());

export function toTargetView(t: TargetRow, all: TargetRow[] = []): TargetView {
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
    connection: connectionOf(t),
    hostKeyProblem: hostKeyProblemOf(t),
    sameWorkerAs: t.workerId ? all.filter((o) => o.id !== t.id && o.workerId === t.workerId).map((o) => o.name) : [],
    ...presentationOf(t.kind),
  };
}

export const parseProbe = (json: string | null): TProbe | null => parseStoredJson(ZProbeResponse, json);

/** The transport for a target; the caller never knows whether it is a pipe or SSH. */
export function transportFor(t: TargetRow, db: Db = getDb()): WorkerTransport {
  if (t.kind === "ssh") return sshTargetTransport(db, t);
  const rt = controllerRuntime();
  const cfg = ZLocalTargetConfig.parse(JSON.parse(t.config));
  return localTransport({ label: t.name, bundlePath: workerBundlePath(rt), workerHome: cfg.workerHome, timeoutMs: rt.config.workerTimeoutMs });
}

export function targetsService(db: Db = getDb()) {
  const repo = targetsRepository(db);

  async function requireTarget(id: string): Promise<TargetRow> {
    const t = await repo.find(id);
    if (!t) throw notFound(`There is no training computer with id ${id}.`);
    return t;
  }

  /** Keeps the key a server presented, for the owner to check and accept. */
  async function noteHostKey(t: TargetRow, err: HostKeyRejected): Promise<void> {
    const cfg = ZSshTargetConfig.parse(JSON.parse(t.config));
    const v = err.verdict;
    const problem = {
      status: v.status,
      hostName: hostKeyName(cfg.endpoint.host, cfg.endpoint.port),
      keyType: err.keyType,
      key: err.keyBase64,
      fingerprint: v.fingerprint,
      knownFingerprints: v.status === "changed" ? v.knownFingerprints : [],
      seenAt: new Date().toISOString(),
    };
    await repo.setHostKeyProblem(t.id, JSON.stringify(problem));
  }

  /** Sends one request to the target's worker and records reachability. */
  async function execOn<R extends TWorkerRequest>(t: TargetRow, request: R): Promise<ResponseOf<R["op"]>> {
    try {
      const res = await transportFor(t, db).exec(request);
      if (await repo.markReachable(t.id)) publish({ type: "target.changed", targetId: t.id });
      return res;
    } catch (err) {
      await recordFailure(t, err);
      throw err;
    }
  }

  /** What a failed call says about the computer (also used by transfers and Set up). */
  async function recordFailure(t: TargetRow, err: unknown): Promise<void> {
    if (err instanceof HostKeyRejected) {
      // Not "unreachable": the server answered, and the owner has a decision to make.
      await noteHostKey(t, err);
      await repo.setLastError(t.id, err.message);
      publish({ type: "target.changed", targetId: t.id });
    } else if (err instanceof WorkerUnreachable) {
      if (await repo.markUnreachable(t.id, new Date(), err.message)) publish({ type: "target.changed", targetId: t.id });
    } else if (await repo.markReachable(t.id)) {
      // It answered (even with a refusal): reachable.
      publish({ type: "target.changed", targetId: t.id });
    }
  }

  /** Always asks the worker afresh: after Set up or "Check again" an earlier answer would be wrong. */
  function probe(id: string, opts: { checkSharedHome?: boolean } = {}): Promise<TargetDetailView> {
    // Registered before the first await, so a freshProbe asked in the same moment joins it.
    const target = requireTarget(id);
    const answer: Promise<TargetDetailView> = target.then((t) => probeNow(t, opts)).finally(() => {
      if (probesInFlight().get(id)?.answer === answer) probesInFlight().delete(id);
    });
    probesInFlight().set(id, { startedAt: Date.now(), revision: target.then((t) => t.revision, () => null), answer });
    return answer;
  }

  async function probeNow(t: TargetRow, opts: { checkSharedHome?: boolean }): Promise<TargetDetailView> {
    let res: TProbe;
    try {
      res = await execOn(t, { protocol: WORKER_PROTOCOL, op: "probe", ...(opts.checkSharedHome ? { checkSharedHome: true } : {}) });
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
    return { ...toTargetView(saved, await repo.list()), probe: res };
  }

  return {
    requireTarget,
    execOn,
    recordFailure,
    probe,
    list: async (): Promise<TargetView[]> => {
      const all = await repo.list();
      return all.map((t) => toTargetView(t, all));
    },
    get: async (id: string): Promise<TargetDetailView> => {
      const t = await requireTarget(id);
      return { ...toTargetView(t, await repo.list()), probe: parseProbe(t.probe) };
    },
    /**
     * The stored probe when it is younger than maxAgeMs; else the probe running now when it
     * started within maxAgeMs (so 0 always asks anew) for this configuration revision, else a new one. A probe runs Python
     * discovery (about a second): 50 admissions at once, or the server's first reconcile
     * pass and an upload's environment check, must not each start one.
     */
    async freshProbe(id: string, maxAgeMs: number): Promise<{ target: TargetRow; probe: TProbe }> {
      const acceptFrom = Date.now() - maxAgeMs;
      const t = await requireTarget(id);
      const stored = parseProbe(t.probe);
      if (stored && t.probedAt && Date.now() - t.probedAt.getTime() < maxAgeMs) return { target: t, probe: stored };
      const running = probesInFlight().get(id);
      const joinable = running && running.startedAt >= acceptFrom && (await running.revision) === t.revision;
      const fresh = await (joinable ? running.answer : probe(id));
      return { target: await requireTarget(id), probe: fresh.probe! };
    },
  };
}
