import { describe, expect, it } from "vitest";
import type { WorkerConfig } from "./config";
import { fit, ledgerResources, queueOrder, type Ledger } from "./ledger";
import type { TReceipt } from "../../contracts/worker/receipt";

const cfg = { capacity: { cpus: 4, ramGb: 16, gpus: 2 } } as WorkerConfig;
const slots = () => [
  { id: "GPU-a", memoryGb: 80 },
  { id: "GPU-b", memoryGb: 80 },
];
const empty = (): Ledger => ({ reservations: {} });

describe("resource fit", () => {
  it("reserves CPU slots and RAM and refuses what does not fit, with a reason", () => {
    const l = empty();
    const a = fit(cfg, l, { cpus: 3, ramGb: 8 }, slots);
    expect(a.reservation).toMatchObject({ cpus: 3, ramGb: 8, gpuIds: [] });
    l.reservations.a = a.reservation!;
    expect(fit(cfg, l, { cpus: 2, ramGb: 1 }, slots)).toMatchObject({ reservation: null, reason: expect.stringMatching(/CPUs/) });
    expect(fit(cfg, l, { cpus: 1, ramGb: 9 }, slots)).toMatchObject({ reservation: null, reason: expect.stringMatching(/RAM/) });
  });
  it("gives one job per GPU by default and shares a GPU by memory only when not held whole", () => {
    const l = empty();
    const g = fit(cfg, l, { cpus: 1, ramGb: 1, gpus: 1 }, slots).reservation!;
    expect(g.gpuIds).toEqual(["GPU-a"]);
    l.reservations.g = g;
    const s1 = fit(cfg, l, { cpus: 1, ramGb: 1, gpuMemoryGb: 50 }, slots).reservation!;
    expect(s1.gpuShare).toEqual({ gpuId: "GPU-b", memoryGb: 50 });
    l.reservations.s1 = s1;
    expect(fit(cfg, l, { cpus: 1, ramGb: 1, gpuMemoryGb: 40 }, slots).reservation).toBeNull();
    expect(fit(cfg, l, { cpus: 1, ramGb: 1, gpus: 1 }, slots).reservation).toBeNull();
    expect(fit(cfg, l, { cpus: 1, ramGb: 1, gpuMemoryGb: 30 }, slots).reservation?.gpuShare?.gpuId).toBe("GPU-b");
  });
  it("holds a resident job's memory budget but no CPU, so a job wanting every CPU still starts beside it", () => {
    const l = empty();
    const serving = fit(cfg, l, ledgerResources({ cpus: 1, ramGb: 2 }, true), slots).reservation!;
    expect(serving).toMatchObject({ cpus: 0, ramGb: 2 });
    l.reservations.serving = serving;
    expect(fit(cfg, l, ledgerResources({ cpus: 4, ramGb: 8 }, false), slots).reservation).toMatchObject({ cpus: 4, ramGb: 8 });
    // The memory budget stays a hard reservation.
    expect(fit(cfg, l, { cpus: 4, ramGb: 15 }, slots)).toMatchObject({ reservation: null, reason: expect.stringMatching(/RAM/) });
  });
  it("orders the queue by priority, then admission order", () => {
    const r = (priority: number, seq: number) => ({ priority, seq }) as TReceipt;
    const sorted = [r(0, 1), r(5, 3), r(0, 2), r(5, 2)].sort(queueOrder).map((x) => `${x.priority}/${x.seq}`);
    expect(sorted).toEqual(["5/2", "5/3", "0/1", "0/2"]);
  });
});
