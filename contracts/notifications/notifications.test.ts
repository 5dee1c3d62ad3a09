import { describe, expect, it } from "vitest";
import { ZCreateChannelInput, ZNotifyInput } from "./notifications";

describe("the notifier's contracts", () => {
  it("accepts a webhook or an ntfy channel with an http(s) URL", () => {
    expect(ZCreateChannelInput.parse({ kind: "webhook", name: " Alerts ", url: "https://hooks.example.com/trainyard" })).toEqual({ kind: "webhook", name: "Alerts", url: "https://hooks.example.com/trainyard" });
    expect(ZCreateChannelInput.safeParse({ kind: "ntfy", name: "Phone", url: "http://ntfy.local:8080/my-topic" }).success).toBe(true);
  });

  it("refuses a URL that is not http or https, or not a URL at all", () => {
    for (const url of ["ftp://example.com/x", "javascript:alert(1)", "file:///etc/passwd", "example.com/hook", ""]) {
      expect(ZCreateChannelInput.safeParse({ kind: "webhook", name: "x", url }).success, url).toBe(false);
    }
  });

  it("refuses an unknown channel kind, an empty name and extra fields (a secret cannot be chosen)", () => {
    expect(ZCreateChannelInput.safeParse({ kind: "email", name: "x", url: "https://a.example" }).success).toBe(false);
    expect(ZCreateChannelInput.safeParse({ kind: "ntfy", name: "  ", url: "https://a.example" }).success).toBe(false);
    expect(ZCreateChannelInput.safeParse({ kind: "webhook", name: "x", url: "https://a.example", secret: "whsec_x" }).success).toBe(false);
  });

  it("cuts a long title instead of refusing the notification, and takes only app paths as links", () => {
    const n = ZNotifyInput.parse({ id: "e1", kind: "run_failed", title: "t".repeat(300), body: "b" });
    expect(n.title).toHaveLength(200);
    expect(n).toMatchObject({ projectId: null, link: null });
    expect(ZNotifyInput.safeParse({ id: "e1", kind: "run_failed", title: "t", body: "b", link: "https://evil.example" }).success).toBe(false);
    expect(ZNotifyInput.safeParse({ id: "e1", kind: "nothing", title: "t", body: "b" }).success).toBe(false);
  });
});
