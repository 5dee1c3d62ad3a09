import { describe, expect, it } from "vitest";
import { isDomainError } from "@/server/errors";
import { checkGenerate, fieldPath } from "./generate-request";
import { sseBlock } from "@/contracts/deployments/stream-events";

const refusal = (body: unknown, maxNewTokens = 64) => {
  try {
    checkGenerate(body, { maxNewTokens });
  } catch (err) {
    if (isDomainError(err)) return { status: err.httpStatus, code: err.reason, fields: err.details?.fields };
    throw err;
  }
  throw new Error("accepted");
};

describe("a generate body", () => {
  it("is a prompt or chat messages, with an optional maxNewTokens within the cap", () => {
    expect(checkGenerate({ prompt: "hi", maxNewTokens: 8 }, { maxNewTokens: 64 })).toEqual({ prompt: "hi", maxNewTokens: 8 });
    expect(checkGenerate({ messages: [{ role: "user", content: "hi" }] }, { maxNewTokens: 64 })).toEqual({ messages: [{ role: "user", content: "hi" }] });
  });

  it("is refused field by field, with the path as predict writes it", () => {
    expect(refusal({ messages: [{ role: "user", content: "a" }, { role: "robot", content: 1 }] })).toMatchObject({
      status: 400,
      code: "bad_input",
      fields: [
        { path: "messages[1].role", message: expect.any(String) },
        { path: "messages[1].content", message: expect.any(String) },
      ],
    });
    expect(refusal({})).toMatchObject({ status: 400, fields: [{ path: "prompt", message: "send either prompt or messages (one of them)" }] });
    expect(refusal({ prompt: "a", messages: [{ role: "user", content: "b" }] })).toMatchObject({ status: 400, fields: [{ path: "prompt" }] });
    expect(refusal({ prompt: "a", extra: 1 })).toMatchObject({ status: 400, code: "bad_input" });
  });

  it("takes optional sampling (temperature, topP, seed, stop) and refuses each out of range by its field", () => {
    const sampled = { prompt: "hi", temperature: 0.7, topP: 0.9, seed: 42, stop: ["\n", "Q:"] };
    expect(checkGenerate(sampled, { maxNewTokens: 64 })).toEqual(sampled);
    const bad = refusal({ prompt: "hi", temperature: 2.5, topP: 1.5, seed: 0.5, stop: ["a", "b", "c", "d", "e"] });
    expect(bad).toMatchObject({ status: 400, code: "bad_input" });
    expect((bad.fields as { path: string }[]).map((f) => f.path).sort()).toEqual(["seed", "stop", "temperature", "topP"]);
    expect(refusal({ prompt: "hi", stop: [""] })).toMatchObject({ status: 400, fields: [{ path: "stop[0]" }] });
  });

  it("over the token cap is 413 too_large on maxNewTokens", () => {
    expect(refusal({ prompt: "a", maxNewTokens: 65 })).toEqual({ status: 413, code: "too_large", fields: [{ path: "maxNewTokens", message: "at most 64" }] });
  });

  it("writes paths of nested fields and SSE blocks of one event each", () => {
    expect(fieldPath(["messages", 0, "role"])).toBe("messages[0].role");
    expect(fieldPath([])).toBe("");
    expect(sseBlock({ type: "delta", text: "a\nb" })).toBe('event: delta\ndata: {"text":"a\\nb"}\n\n');
  });
});
