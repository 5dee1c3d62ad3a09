import { Webhook, WebhookVerificationError } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import type { WebhookPayload } from "@/contracts/notifications/notifications";
import { newWebhookSecret, signedWebhookRequest } from "./webhook";

const payload: WebhookPayload = {
  id: "monitor-alert:7",
  kind: "monitor_alert",
  title: "Inputs drifting on \"penguins\": island",
  body: "Drift in island — café ✓",
  link: "https://ml.example.com/projects/p1/ml/deployments/d1",
  projectId: "p1",
  createdAt: "2025-01-02T03:04:05.000Z",
};

describe("a signed webhook", () => {
  it("verifies with the standardwebhooks package's own Webhook.verify and carries the payload", () => {
    const secret = newWebhookSecret();
    const { headers, body } = signedWebhookRequest(secret, payload);
    expect(headers["webhook-id"]).toBe("monitor-alert:7");
    expect(headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(new Webhook(secret).verify(body, headers)).toEqual(payload);
  });

  it("signs id.timestamp.body: a changed body, id or another secret does not verify", () => {
    const secret = newWebhookSecret();
    const { headers, body } = signedWebhookRequest(secret, payload);
    expect(() => new Webhook(secret).verify(body.replace("p1", "p2"), headers)).toThrow(WebhookVerificationError);
    expect(() => new Webhook(secret).verify(body, { ...headers, "webhook-id": "monitor-alert:8" })).toThrow(WebhookVerificationError);
    expect(() => new Webhook(newWebhookSecret()).verify(body, headers)).toThrow(WebhookVerificationError);
  });

  it("stamps the attempt's time in unix seconds; receivers refuse one older than 5 minutes", () => {
    const secret = newWebhookSecret();
    const at = new Date(Date.now() - 10 * 60_000);
    const { headers, body } = signedWebhookRequest(secret, payload, at);
    expect(headers["webhook-timestamp"]).toBe(String(Math.floor(at.getTime() / 1000)));
    expect(() => new Webhook(secret).verify(body, headers)).toThrow(/too old/);
  });

  it("makes a fresh whsec_ secret of 32 random bytes each time", () => {
    const a = newWebhookSecret();
    expect(a).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    expect(Buffer.from(a.slice("whsec_".length), "base64")).toHaveLength(32);
    expect(newWebhookSecret()).not.toBe(a);
  });
});
