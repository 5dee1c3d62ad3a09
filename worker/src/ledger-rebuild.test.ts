// ledger.json is derived from the receipts: when it is missing or unreadable, the
// reservations of admitted, running and unknown jobs are rebuilt from their receipts
// (the damaged file is kept beside it), so a lost ledger never double-books CPUs or GPUs.
// Real files in a throw-away worker home.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { TReceipt, TReservation } from "../../contracts/worker/receipt";
import type { JobState } from "../../contracts/worker/states";
import { loadConfig, type WorkerConfig } from "./config";
import { Home } from "./home";
import { fit, readLedger } from "./ledger";
import { createJob } from "./ops/createjob";
import { updateReceipt } from "./receipts";

let dir: string;
let cfg: WorkerConfig;
let home: Home;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), "trainyard-ledger-"));
  fs.writeFileSync(path.join(dir, "config.json"), JSON.stringify({ capacity: { cpus: 4, ramGb: 16, gpus: 2 } }));
  cfg = loadConfig(dir);
  home = new Home(cfg);
  home.ensure();
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

let n = 0;
function jobIn(state: JobState, reservation: TReservation | null): TReceipt {
  const r = createJob({ cfg, home }, {
    opId: `op-${++n}`,
    intentHash: `i-${n}`,
    kind: "run",
    recipe: "wk",
    job: "sleepy",
    environmentId: "e".repeat(64),
    priority: 0,
    resources: { cpus: reservation?.cpus ?? 1, ramGb: 0 },
    deadlineSeconds: 60,
    graceSeconds: 1,
    input: {},
    inputRefs: [],
  });
  return updateReceipt(home, r.jobId, (x) => ({ ...x, state, reservation }));
}

const res = (cpus: number, gpuIds: string[] = []): TReservation => ({ cpus, ramGb: 1, gpuIds, gpuShare: null });

describe("ledger rebuild", () => {
  it("an unreadable ledger is kept as ledger.json.damaged-* and rebuilt from active receipts", () => {
    const running = jobIn("running", res(2, ["gpu-0"]));
    const unknown = jobIn("unknown", res(1));
    const admitted = jobIn("admitted", res(1, ["gpu-1"]));
    jobIn("succeeded", res(4)); // finished: holds nothing
    jobIn("queued", null);
    fs.writeFileSync(home.ledger(), "{\"reservations\": {\"x\": ");
    const ledger = readLedger(home);
    expect(Object.keys(ledger.reservations).sort()).toEqual([running.jobId, unknown.jobId, admitted.jobId].sort());
    const damaged = fs.readdirSync(dir).filter((f) => f.startsWith("ledger.json.damaged-"));
    expect(damaged).toHaveLength(1);
    expect(fs.readFileSync(path.join(dir, damaged[0]!), "utf8")).toBe("{\"reservations\": {\"x\": ");
    expect(JSON.parse(fs.readFileSync(home.ledger(), "utf8")).reservations[running.jobId]).toEqual(res(2, ["gpu-0"]));
    // 4 CPUs, 4 held by live jobs: nothing more fits, and both GPUs are taken.
    const slots = () => [{ id: "gpu-0", memoryGb: 80 }, { id: "gpu-1", memoryGb: 80 }];
    expect(fit(cfg, ledger, { cpus: 1, ramGb: 0 }, slots).reservation).toBeNull();
    expect(fit({ ...cfg, capacity: { ...cfg.capacity, cpus: 8 } }, ledger, { cpus: 1, ramGb: 0, gpus: 1 }, slots).reservation).toBeNull();
  });

  it("a missing ledger is rebuilt from the receipts of running jobs", () => {
    const running = jobIn("running", res(3));
    fs.rmSync(home.ledger(), { force: true });
    expect(readLedger(home).reservations).toEqual({ [running.jobId]: res(3) });
    expect(fs.existsSync(home.ledger())).toBe(true);
  });

  it("a ledger that is valid JSON of the wrong shape counts as damaged", () => {
    const running = jobIn("running", res(1));
    fs.writeFileSync(home.ledger(), JSON.stringify({ reservations: { a: { cpus: "many" } } }));
    expect(readLedger(home).reservations).toEqual({ [running.jobId]: res(1) });
    expect(fs.readdirSync(dir).some((f) => f.startsWith("ledger.json.damaged-"))).toBe(true);
  });
});
