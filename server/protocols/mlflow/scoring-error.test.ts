import { describe, expect, it, vi } from "vitest";
import { DomainError } from "@/server/errors";
import { BodyTooLarge } from "@/server/http/json-body";
import { mlflowErrorResponse, ZMlflowError } from "./scoring-error";

async function answer(err: unknown) {
  const r = mlflowErrorResponse(err, "Scoring");
  return { status: r.status, retryAfter: r.headers.get("retry-after"), body: ZMlflowError.parse(await r.json()) };
}

describe("MLflow-shaped refusals", () => {
  it("answers a field refusal 400 BAD_REQUEST with its fields", async () => {
    const fields = [{ path: "dataframe_split.data[0][1]", message: "a number is expected" }];
    expect(await answer(new DomainError("BAD_INPUT", "The rows do not match", { code: "bad_input", fields }))).toEqual({
      status: 400,
      retryAfter: null,
      body: { error_code: "BAD_REQUEST", message: "The rows do not match", reason: "bad_input", fields },
    });
  });

  it("keeps each refusal's status, with the error code MLflow gives that status, and Retry-After", async () => {
    expect(await answer(new DomainError("UNAVAILABLE", "switching", { code: "switching", retryAfterSeconds: 5 }))).toMatchObject({ status: 503, retryAfter: "5", body: { error_code: "TEMPORARILY_UNAVAILABLE", reason: "switching" } });
    expect(await answer(new DomainError("NOT_FOUND", "There is no deployment x."))).toMatchObject({ status: 404, body: { error_code: "RESOURCE_DOES_NOT_EXIST" } });
    expect(await answer(new DomainError("NOT_FOUND", "a language model", { code: "wrong_kind" }))).toMatchObject({ status: 404, body: { error_code: "ENDPOINT_NOT_FOUND" } });
    expect(await answer(new DomainError("TOO_MANY_REQUESTS", "busy", { code: "overloaded", retryAfterSeconds: 2 }))).toMatchObject({ status: 429, retryAfter: "2", body: { error_code: "REQUEST_LIMIT_EXCEEDED" } });
    expect(await answer(new BodyTooLarge(4 * 1024 * 1024))).toMatchObject({ status: 413, body: { error_code: "BAD_REQUEST", reason: "too_large" } });
  });

  it("answers anything else 500 INTERNAL_ERROR, logged", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    expect(await answer(new Error("boom"))).toMatchObject({ status: 500, body: { error_code: "INTERNAL_ERROR", message: "Scoring failed unexpectedly: boom" } });
    expect(log).toHaveBeenCalledOnce();
    log.mockRestore();
  });
});
