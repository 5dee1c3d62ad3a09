import { describe, expect, it } from "vitest";
import { servingRefusal } from "@/server/deployments/serve-request";
import { badInput } from "@/server/errors";
import { errorResponse } from "./error-response";

describe("errorResponse", () => {
  it("answers a serving process's full queue 429 with its Retry-After and code", async () => {
    const res = errorResponse(servingRefusal({ ok: false, status: 429, error: { code: "overloaded", message: "1 computing and 16 waiting" }, retryAfterSeconds: 2.4 }), "Predict");
    expect(res.status).toBe(429);
    expect(res.headers.get("retry-after")).toBe("3");
    expect(await res.json()).toMatchObject({ error: "1 computing and 16 waiting", code: "overloaded" });
  });

  it("sends no Retry-After for a refusal that has none", () => {
    const res = errorResponse(badInput("rows[0].x: expected a number"), "Predict");
    expect(res.status).toBe(400);
    expect(res.headers.get("retry-after")).toBeNull();
  });
});
