import { TRPCError } from "@trpc/server";
import { getHTTPStatusCodeFromError } from "@trpc/server/http";
import { describe, expect, it } from "vitest";
import { badInput, conflict, DomainError, ERROR_ANSWERS, type DomainErrorCode } from "./errors";
import { errorResponse } from "./http/error-response";

const CODES = Object.keys(ERROR_ANSWERS) as DomainErrorCode[];

describe("domain error answers", () => {
  it("tRPC answers every code with the same HTTP status as the route handlers", () => {
    for (const code of CODES) {
      const viaTrpc = getHTTPStatusCodeFromError(new TRPCError({ code: ERROR_ANSWERS[code].trpc, message: "x" }));
      expect(viaTrpc, code).toBe(new DomainError(code, "x").httpStatus);
    }
  });

  it("a route answers the precise reason and its status (413 over the cap, 507 on a full disk)", async () => {
    const tooLarge = errorResponse(badInput("rows.csv is larger than the upload cap.", { code: "too_large", limit: 10 }), "Uploading");
    expect(tooLarge.status).toBe(413);
    expect(await tooLarge.json()).toEqual({ error: "rows.csv is larger than the upload cap.", code: "too_large", details: { code: "too_large", limit: 10 } });
    expect(errorResponse(new DomainError("UNAVAILABLE", "The disk filled up.", { code: "disk_full" }), "Uploading").status).toBe(507);
    const plain = errorResponse(conflict("Busy."), "Deleting");
    expect(plain.status).toBe(409);
    expect(await plain.json()).toMatchObject({ code: "conflict" });
  });

  it("an error that is not a domain error is a 500 that names what failed", async () => {
    const spy = console.error;
    console.error = () => {};
    try {
      const res = errorResponse(new Error("boom"), "Predicting a file");
      expect(res.status).toBe(500);
      expect(await res.json()).toEqual({ error: "Predicting a file failed unexpectedly: boom", code: "internal", details: null });
    } finally {
      console.error = spy;
    }
  });
});
