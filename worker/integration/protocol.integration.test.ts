// The control CLI's envelope: typed errors for a wrong protocol, an unknown op, bad JSON
// and oversize requests; probe answers with the documented shape.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ZProbeResponse, WORKER_PROTOCOL } from "../../contracts/worker";
import { makeHome, type WorkerHome } from "../testing/harness";

let w: WorkerHome;
beforeAll(async () => {
  w = await makeHome({ capacity: { cpus: 2, ramGb: 4 } });
});
afterAll(() => w?.cleanup());

describe("worker control protocol", () => {
  it("protocol mismatch is a typed error naming the worker's protocol", async () => {
    const r = await w.control({ protocol: 99, op: "probe" });
    expect(r).toMatchObject({ ok: false, error: { code: "protocol_mismatch", details: { workerProtocol: WORKER_PROTOCOL, requestProtocol: 99 } } });
  });

  it("unknown op is a typed error", async () => {
    const r = await w.control({ op: "launch_missiles" });
    expect(r.ok).toBe(false);
    expect(r.error.code).toBe("unknown_op");
  });

  it("bad JSON and oversize requests are bad_request, exit code 0", async () => {
    const bad = await w.controlRaw("{not json");
    expect(bad.code).toBe(0);
    expect(JSON.parse(bad.stdout).error.code).toBe("bad_request");
    const big = await w.controlRaw(JSON.stringify({ protocol: 2, op: "probe", pad: "x".repeat(300 * 1024) }));
    expect(JSON.parse(big.stdout).error.code).toBe("bad_request");
    const invalid = await w.control({ op: "inspect" });
    expect(invalid.error.code).toBe("bad_request");
  });

  it("probe reports identity, capacity, pythons and fixture recipes", async () => {
    const r = await w.control({ op: "probe" });
    const probe = ZProbeResponse.parse(r);
    expect(probe.workerId).toMatch(/^[0-9a-f-]{36}$/);
    expect((await w.control({ op: "probe" })).workerId).toBe(probe.workerId); // stored in the home
    expect(probe.capacity).toMatchObject({ cpus: 2, ramGb: 4 });
    expect(probe.bootId).toBeTruthy();
    expect(Array.isArray(probe.gpus)).toBe(true);
    const py = probe.pythons.find((p) => p.canCreateVenv);
    expect(py?.version).toMatch(/^3\.\d+\.\d+$/);
    const wk = probe.recipes.find((x) => x.name === "wk");
    expect(wk?.environmentId).toMatch(/^[0-9a-f]{64}$/);
    expect(wk?.jobs).toContain("sleepy");
  });
});
