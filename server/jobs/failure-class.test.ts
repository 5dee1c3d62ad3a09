import { describe, expect, it } from "vitest";
import { ERROR_CODES } from "@/contracts/worker";
import { classifySubmitRefusal } from "./failure-class";
import { canonicalJson, intentHash } from "./intent-hash";

describe("submit refusals", () => {
  it("classify every worker error code; only passing conditions are retried", () => {
    const retried = ERROR_CODES.filter((c) => classifySubmitRefusal(c).action === "retry");
    expect(retried.sort()).toEqual(["internal", "lock_timeout"]);
    expect(classifySubmitRefusal("missing_input")).toEqual({ action: "fail", fault: "user" });
    expect(classifySubmitRefusal("environment_not_ready")).toEqual({ action: "fail", fault: "system" });
  });
});

describe("intent hash", () => {
  it("does not depend on key order, but on every value", () => {
    const a = { recipe: "r", input: { b: 1, a: [1, { y: 2, x: 1 }] }, resources: { cpus: 1 } };
    const b = { resources: { cpus: 1 }, input: { a: [1, { x: 1, y: 2 }], b: 1 }, recipe: "r" };
    expect(canonicalJson(a)).toBe(canonicalJson(b));
    expect(intentHash(a)).toBe(intentHash(b));
    expect(intentHash({ ...a, input: { b: 2, a: [1, { y: 2, x: 1 }] } })).not.toBe(intentHash(a));
    expect(intentHash({ ...a, extra: undefined })).toBe(intentHash(a));
  });
});
