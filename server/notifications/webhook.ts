/**
 * A webhook delivery, signed as Standard Webhooks sign theirs (the `standardwebhooks`
 * package, so any receiver's own library verifies it): `webhook-id` is the notification's
 * stable id (the same on every retry, so a receiver can drop repeats), `webhook-timestamp`
 * the attempt's unix seconds, `webhook-signature` "v1,<base64 HMAC-SHA256 of
 * id.timestamp.body>" under the channel's secret. Receivers reject timestamps more than
 * 5 minutes away from their clock.
 */
import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import type { WebhookPayload } from "@/contracts/notifications/notifications";

/** 32 random bytes, as Standard Webhooks writes a secret ("whsec_" + base64; the spec asks for 24 to 64). */
export function newWebhookSecret(): string {
  return `whsec_${randomBytes(32).toString("base64")}`;
}

export interface OutgoingRequest {
  headers: Record<string, string>;
  body: string;
}

export function signedWebhookRequest(secret: string, payload: WebhookPayload, at: Date = new Date()): OutgoingRequest {
  const body = JSON.stringify(payload);
  return {
    body,
    headers: {
      "content-type": "application/json",
      "webhook-id": payload.id,
      "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
      "webhook-signature": new Webhook(secret).sign(payload.id, at, body),
    },
  };
}
