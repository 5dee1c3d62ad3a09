import { describe, expect, it } from "vitest";
import { REQUEST_SCHEMAS, WORKER_OPS, WORKER_PROTOCOL, ZSubmitRequest } from "./index";

describe("protocol schemas", () => {
  it("covers every documented op", () => {
    expect(WORKER_OPS.sort()).toEqual(
      ["artifacts", "cancel", "fetch", "gc", "import", "inspect", "list", "logs", "peek", "prepare", "probe", "put", "submit"].sort(),
    );
    expect(WORKER_PROTOCOL).toBe(2);
  });
  it("submit defaults priority to 0 and refuses a foreign protocol", () => {
    const ok = ZSubmitRequest.parse({
      protocol: 2, op: "submit", opId: "o", intentHash: "h", recipe: "r", job: "j", environmentId: "a".repeat(64),
      input: {}, resources: { cpus: 1, ramGb: 1 }, deadlineSeconds: 10,
    });
    expect(ok.priority).toBe(0);
    expect(REQUEST_SCHEMAS.probe.safeParse({ protocol: 1, op: "probe" }).success).toBe(false);
  });
  it("logs reads at most 256 KiB per call", () => {
    expect(REQUEST_SCHEMAS.logs.safeParse({ protocol: 2, op: "logs", jobId: "j", maxBytes: 300 * 1024 }).success).toBe(false);
  });
});
