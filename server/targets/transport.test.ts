import { describe, expect, it } from "vitest";
import { MAX_REQUEST_BYTES, WORKER_PROTOCOL } from "@/contracts/worker";
import { outdatedWorkerMessage, workerProtocolOf } from "./compat";
import { decodeResponse, encodeRequest, localTransport, WorkerProtocolError, WorkerRefused, WorkerUnreachable } from "./transport";

describe("worker protocol codec", () => {
  it("checks requests against the protocol schemas before sending", () => {
    expect(JSON.parse(encodeRequest({ protocol: WORKER_PROTOCOL, op: "inspect", jobId: "j1" }, "box"))).toMatchObject({ op: "inspect", jobId: "j1" });
    expect(() => encodeRequest({ protocol: WORKER_PROTOCOL, op: "inspect" }, "box")).toThrow(WorkerProtocolError);
    const big = { protocol: WORKER_PROTOCOL, op: "submit", opId: "o", intentHash: "h", recipe: "r", job: "j", environmentId: "a".repeat(64), input: { blob: "x".repeat(MAX_REQUEST_BYTES) }, resources: { cpus: 1, ramGb: 1 }, deadlineSeconds: 5 } as const;
    expect(() => encodeRequest(big, "box")).toThrow(/larger than/);
  });

  it("turns an ok:false answer into a typed refusal", () => {
    const body = JSON.stringify({ ok: false, protocol: 1, error: { code: "not_found", message: "no job j9" } });
    const err = (() => {
      try {
        decodeResponse("inspect", body, "box");
      } catch (e) {
        return e;
      }
    })();
    expect(err).toBeInstanceOf(WorkerRefused);
    expect(err).toMatchObject({ code: "not_found", message: "no job j9" });
  });

  it("rejects answers outside the protocol, naming the computer", () => {
    expect(() => decodeResponse("probe", "not json", "gpu-box")).toThrow(/gpu-box.*not JSON/);
    expect(() => decodeResponse("probe", JSON.stringify({ ok: true, protocol: 1 }), "gpu-box")).toThrow(WorkerProtocolError);
  });

  it("a bundle that is not there is unreachable, not a failure of the job", async () => {
    const t = localTransport({ label: "This computer", bundlePath: "/nonexistent/trainyard-worker.mjs", workerHome: "/nonexistent", timeoutMs: 1000 });
    await expect(t.exec({ protocol: WORKER_PROTOCOL, op: "probe" })).rejects.toBeInstanceOf(WorkerUnreachable);
  });
});

describe("protocol compatibility", () => {
  it("refuses new jobs on an older worker with an actionable message", () => {
    expect(outdatedWorkerMessage("gpu-box", WORKER_PROTOCOL)).toBeNull();
    expect(outdatedWorkerMessage("gpu-box", null)).toBeNull();
    expect(outdatedWorkerMessage("gpu-box", WORKER_PROTOCOL - 1)).toMatch(/update the worker on gpu-box/);
  });

  it("reads the protocol number from a probe even when the rest does not match today's schema", () => {
    expect(workerProtocolOf(JSON.stringify({ workerProtocol: 0, somethingOld: true }))).toBe(0);
    expect(workerProtocolOf("garbage")).toBeNull();
    expect(workerProtocolOf(null)).toBeNull();
  });
});
