/**
 * One attempt to deliver one notification to one channel: a POST with a 10 s limit; a 2xx
 * answer is delivered, anything else (another status, a redirect, no answer, a refused
 * connection) is a failure described in words for the delivery log. Redirects are not
 * followed: fetch would turn the POST into a GET, and the signed body would be lost.
 */
import type { ChannelKind, NotificationKind, WebhookPayload } from "@/contracts/notifications/notifications";
import { ntfyRequest } from "./ntfy";
import { signedWebhookRequest, type OutgoingRequest } from "./webhook";

export const ATTEMPT_TIMEOUT_MS = 10_000;
/** How much of a refusal's answer the log keeps. */
const ANSWER_CHARS = 200;

export interface ChannelToDeliver {
  kind: ChannelKind;
  url: string;
  secret: string | null;
}

export interface NotificationToDeliver {
  id: string;
  kind: NotificationKind;
  projectId: string | null;
  title: string;
  body: string;
  /** Absolute when the server knows its address, else the app path. */
  link: string | null;
  createdAt: Date;
}

export interface AttemptOutcome {
  delivered: boolean;
  status: number | null;
  error: string | null;
}

export function requestFor(channel: ChannelToDeliver, n: NotificationToDeliver, at: Date = new Date()): OutgoingRequest {
  if (channel.kind === "ntfy") return ntfyRequest(n);
  if (!channel.secret) throw new Error("the webhook channel has no signing secret");
  const payload: WebhookPayload = { id: n.id, kind: n.kind, title: n.title, body: n.body, link: n.link, projectId: n.projectId, createdAt: n.createdAt.toISOString() };
  return signedWebhookRequest(channel.secret, payload, at);
}

export async function attemptDelivery(channel: ChannelToDeliver, n: NotificationToDeliver): Promise<AttemptOutcome> {
  const { headers, body } = requestFor(channel, n);
  const target = new URL(channel.url).host;
  try {
    const res = await fetch(channel.url, { method: "POST", headers: { "user-agent": "Trainyard-Notifier", ...headers }, body, redirect: "manual", signal: AbortSignal.timeout(ATTEMPT_TIMEOUT_MS) });
    const answer = (await res.text().catch(() => "")).trim().slice(0, ANSWER_CHARS);
    if (res.status >= 200 && res.status < 300) return { delivered: true, status: res.status, error: null };
    const where = res.status >= 300 && res.status < 400 ? ` (a redirect to ${res.headers.get("location") ?? "?"}; use the final URL)` : "";
    return { delivered: false, status: res.status, error: `${target} answered HTTP ${res.status}${where}${answer ? `: ${answer}` : ""}` };
  } catch (err) {
    return { delivered: false, status: null, error: failureWords(err, target) };
  }
}

function failureWords(err: unknown, target: string): string {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e.name === "TimeoutError") return `${target} did not answer within ${ATTEMPT_TIMEOUT_MS / 1000} s`;
  const cause = e.cause?.code ?? e.cause?.message ?? e.message ?? String(err);
  return `could not reach ${target} (${cause})`;
}
