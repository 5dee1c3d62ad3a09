/**
 * Shared steps of the controller integration tests: find This computer, make sure the
 * fixture recipe's environment exists (a real prepare job the first time), admit a job
 * of the fixture recipe, and read the worker directly (as an operator would).
 */
import { controllerJobLifecycle } from "@/contracts/lifecycles";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { randomUUID } from "node:crypto";
import { WORKER_PROTOCOL, type TReceipt } from "@/contracts/worker";
import { localTransport } from "@/server/targets/transport";
import { REPO, waitFor, type TestHome, type TestServer } from "./server-harness";

export const RECIPE = "ctltest";

export async function localTargetId(server: TestServer): Promise<string> {
  return waitFor("This computer to be registered", async () => (await server.client.targets.list.query()).find((t) => t.thisComputer)?.id);
}

/** Builds (or finds) the fixture recipe's environment through the API; returns the target id. */
export async function readyRecipe(server: TestServer): Promise<string> {
  const targetId = await localTargetId(server);
  const res = await server.client.targets.prepareRecipe.mutate({ targetId, recipe: RECIPE });
  if (!res.ready && res.job) {
    const jobId = res.job.id;
    const done = await waitFor("the environment job to end", async () => {
      const j = await server.client.jobs.get.query({ id: jobId });
      return controllerJobLifecycle.isTerminal(j.state) ? j : undefined;
    }, 120_000);
    if (done.state !== "succeeded") throw new Error(`prepare ended ${done.state}: ${done.reason} ${done.detail}`);
  }
  return targetId;
}

export interface FixtureInput {
  runLog: string;
  pidFile: string;
  releaseFile: string;
  maxSeconds?: number;
  logLines?: string[];
}

export function fixtureInput(home: TestHome, name: string, extra: Partial<FixtureInput> = {}): FixtureInput {
  return {
    runLog: path.join(home.scratch, `${name}.runs`),
    pidFile: path.join(home.scratch, `${name}.pid`),
    releaseFile: path.join(home.scratch, `${name}.release`),
    maxSeconds: 60,
    ...extra,
  };
}

export function admitFixtureJob(server: TestServer, targetId: string, input: FixtureInput, opId = `test-${randomUUID()}`) {
  return server.client.jobs.admit.mutate({
    opId,
    targetId,
    recipe: RECIPE,
    job: "run",
    input: { ...input },
    resources: { cpus: 0.5, ramGb: 0.1 },
    deadlineSeconds: 300,
  });
}

export const runCount = (file: string) => (existsSync(file) ? readFileSync(file, "utf8").split("\n").filter(Boolean).length : 0);

export const pidOf = (file: string) => (existsSync(file) ? Number(readFileSync(file, "utf8")) : undefined);

export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** Reads the worker directly (the same bundle, outside the server) — an operator's view. */
export async function workerInspect(home: TestHome, opId: string): Promise<TReceipt> {
  const t = localTransport({
    label: "test",
    bundlePath: path.join(REPO, "dist", "worker", "trainyard-worker.mjs"),
    workerHome: home.workerHome,
    timeoutMs: 30_000,
  });
  return (await t.exec({ protocol: WORKER_PROTOCOL, op: "inspect", opId })).receipt;
}

export async function waitForState(server: TestServer, id: string, states: string[], timeoutMs = 60_000) {
  return waitFor(`job ${id} to reach ${states.join("|")}`, async () => {
    const j = await server.client.jobs.get.query({ id });
    return states.includes(j.state) ? j : undefined;
  }, timeoutMs);
}
