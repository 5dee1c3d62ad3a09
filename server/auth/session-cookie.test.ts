import { describe, expect, it } from "vitest";
import { clearedSessionCookie, cookieSecure, sessionCookie } from "./session-cookie";

describe("the session cookie", () => {
  it("is Secure exactly when the public origin is https", () => {
    expect(cookieSecure({ publicOrigin: "https://trainyard.example" })).toBe(true);
    expect(cookieSecure({ publicOrigin: "http://box.lan:3000" })).toBe(false);
    expect(cookieSecure({ publicOrigin: undefined })).toBe(false);
    const expires = new Date("2026-12-31T00:00:00Z");
    expect(sessionCookie("tys_x", expires, { secure: true })).toBe(
      "trainyard_session=tys_x; Path=/; HttpOnly; SameSite=Strict; Secure; Expires=Thu, 31 Dec 2026 00:00:00 GMT",
    );
    expect(sessionCookie("tys_x", expires, { secure: false })).not.toMatch(/Secure/);
    expect(clearedSessionCookie({ secure: true })).toBe("trainyard_session=; Path=/; HttpOnly; SameSite=Strict; Secure; Max-Age=0");
  });
});
