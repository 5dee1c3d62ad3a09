import { describe, expect, it } from "vitest";
import { headerValue, ntfyRequest } from "./ntfy";

describe("an ntfy message", () => {
  it("puts the text in the body and the title, tags and link in headers", () => {
    const r = ntfyRequest({ kind: "run_failed", title: "Run 5 failed", body: "The training ran out of memory.", link: "https://ml.example.com/projects/p1" });
    expect(r.body).toBe("The training ran out of memory.");
    expect(r.headers).toMatchObject({ Title: "Run 5 failed", Tags: "x,run_failed", Priority: "4", Click: "https://ml.example.com/projects/p1" });
  });

  it("sends a title with non-ASCII characters RFC 2047-encoded, which ntfy decodes", () => {
    const title = "Dérive sur « pingouins » — île";
    const encoded = headerValue(title);
    expect(encoded).toMatch(/^=\?UTF-8\?B\?[A-Za-z0-9+/]+=*\?=$/);
    expect(Buffer.from(encoded.slice("=?UTF-8?B?".length, -2), "base64").toString("utf8")).toBe(title);
    expect(headerValue("plain\nline")).toBe("plain line");
  });

  it("leaves a bare path out of Click (ntfy opens only absolute URLs) and in the text", () => {
    const r = ntfyRequest({ kind: "test", title: "Test", body: "Hello", link: "/settings" });
    expect(r.headers.Click).toBeUndefined();
    expect(r.headers.Priority).toBeUndefined();
    expect(r.body).toBe("Hello\n/settings");
  });

  it("cuts a message short of ntfy's 4096 bytes, where it would become an attachment", () => {
    const r = ntfyRequest({ kind: "test", title: "Long", body: "é".repeat(5000), link: null });
    expect(Buffer.byteLength(r.body, "utf8")).toBeLessThanOrEqual(4000);
    expect(r.body.endsWith("…")).toBe(true);
  });
});
