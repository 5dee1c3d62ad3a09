import { describe, expect, it } from "vitest";
import type { WorkerConfig } from "./config";
import { fit, ledgerResources, queueOrder, waitingWords, type Ledger } from "./ledger";
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
  it("says typed what a job waits for and which jobs hold it, with the old words beside", () => {
    const l = empty();
    l.reservations.train = fit(cfg, l, { cpus: 3, ramGb: 4 }, slots).reservation!;
    l.reservations.serving = fit(cfg, l, ledgerResources({ cpus: 1, ramGb: 6 }, true), slots).reservation!;
    l.reservations.small = fit(cfg, l, { cpus: 1, ramGb: 2 }, slots).reservation!;
    const cpu = fit(cfg, l, { cpus: 2, ramGb: 1 }, slots);
    // The serving job holds memory but no CPU: it is not one of the CPUs' holders.
    expect(cpu.waitingFor).toEqual({ resource: "cpus", needs: 2, reserved: 4, capacity: 4, holders: ["train", "small"] });
    expect(cpu.reason).toBe("waiting for CPUs (4/4 reserved, needs 2)");
    delete l.reservations.small;
    const ram = fit(cfg, l, { cpus: 1, ramGb: 8 }, slots);
    expect(ram.waitingFor).toEqual({ resource: "ram", needs: 8, reserved: 10, capacity: 16, holders: ["train", "serving"] });
    expect(ram.reason).toBe("waiting for RAM (10/16 GB reserved, needs 8)");
    expect(fit(cfg, l, { cpus: 1, ramGb: 1 }, slots)).toMatchObject({ waitingFor: null, reason: "" });
  });
  it("names the GPUs' holders, and the GPU with the most room when memory on one GPU is short", () => {
    const l = empty();
    l.reservations.whole = fit(cfg, l, { cpus: 1, ramGb: 1, gpus: 1 }, slots).reservation!;
    l.reservations.share = fit(cfg, l, { cpus: 1, ramGb: 1, gpuMemoryGb: 50 }, slots).reservation!;
    const gpus = fit(cfg, l, { cpus: 1, ramGb: 1, gpus: 1 }, slots);
    expect(gpus.waitingFor).toEqual({ resource: "gpus", needs: 1, reserved: 2, capacity: 2, holders: ["whole", "share"] });
    expect(gpus.reason).toBe("waiting for 1 free GPU(s) (0 free)");
    const mem = fit(cfg, l, { cpus: 1, ramGb: 1, gpuMemoryGb: 40 }, slots);
    expect(mem.waitingFor).toEqual({ resource: "gpu_memory", needs: 40, reserved: 50, capacity: 80, holders: ["whole", "share"] });
    expect(mem.reason).toBe("waiting for 40 GB of GPU memory");
    // A GPU whose memory the worker cannot read (configured, not detected): its capacity is unknown, never Infinity.
    const unknownMemory = () => [{ id: "gpu-0", memoryGb: Number.POSITIVE_INFINITY }];
    const one = empty();
    one.reservations.whole = fit(cfg, one, { cpus: 1, ramGb: 1, gpus: 1 }, unknownMemory).reservation!;
    expect(fit(cfg, one, { cpus: 1, ramGb: 1, gpuMemoryGb: 8 }, unknownMemory).waitingFor).toEqual({ resource: "gpu_memory", needs: 8, reserved: 0, capacity: null, holders: ["whole"] });
    expect(waitingWords({ resource: "gpus", needs: 2, reserved: 1, capacity: 2, holders: [] })).toBe("waiting for 2 free GPU(s) (1 free)");
  });
  it("orders the queue by priority, then admission order", () => {
    const r = (priority: number, seq: number) => ({ priority, seq }) as TReceipt;
    const sorted = [r(0, 1), r(5, 3), r(0, 2), r(5, 2)].sort(queueOrder).map((x) => `${x.priority}/${x.seq}`);
    expect(sorted).toEqual(["5/2", "5/3", "0/1", "0/2"]);
  });
});
