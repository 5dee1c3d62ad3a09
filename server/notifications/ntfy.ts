/**
 * An ntfy delivery (https://docs.ntfy.sh/publish/): the body text POSTed to the topic URL,
 * with the title, tags (an emoji and the kind) and the click-through link as headers.
 * Header values must be ASCII on the way out (fetch refuses others); ntfy decodes RFC 2047
 * ("=?UTF-8?B?…?="), so anything else is sent that way. ntfy turns a message over 4096
 * bytes into an attachment, so the text is cut short of that.
 */
import type { NotificationKind } from "@/contracts/notifications/notifications";
import type { OutgoingRequest } from "./webhook";

/** The ntfy tag (an emoji shortcode) shown with each kind. */
const EMOJI: Record<NotificationKind, string> = {
  run_beat_incumbent: "trophy",
  run_failed: "x",
  cap_reached: "stop_sign",
  decision_waiting: "raised_hand",
  monitor_alert: "warning",
  promotion_reverted: "rewind",
  test: "bell",
};

/** Kinds that should reach the owner now (ntfy priority 4, "high"); the rest use ntfy's default. */
const URGENT = new Set<NotificationKind>(["run_failed", "monitor_alert", "decision_waiting", "promotion_reverted"]);

const MAX_MESSAGE_BYTES = 4000;

/** A header value ntfy reads back as written: ASCII as is, anything else RFC 2047-encoded; no line breaks. */
export function headerValue(text: string): string {
  const oneLine = text.replace(/\s+/g, " ").trim();
  return /^[\x20-\x7e]*$/.test(oneLine) ? oneLine : `=?UTF-8?B?${Buffer.from(oneLine, "utf8").toString("base64")}?=`;
}

function cutToBytes(text: string, max: number): string {
  if (Buffer.byteLength(text, "utf8") <= max) return text;
  let cut = text;
  while (Buffer.byteLength(cut, "utf8") > max - 3) cut = cut.slice(0, Math.floor(cut.length * 0.9));
  return `${cut}…`;
}

export function ntfyRequest(n: { kind: NotificationKind; title: string; body: string; link: string | null }): OutgoingRequest {
  const headers: Record<string, string> = {
    "content-type": "text/plain; charset=utf-8",
    Title: headerValue(n.title),
    Tags: `${EMOJI[n.kind]},${n.kind}`,
  };
  if (URGENT.has(n.kind)) headers.Priority = "4";
  // ntfy opens only an absolute URL; a bare path (no known address) is left in the text instead.
  if (n.link && /^https?:\/\//.test(n.link)) headers.Click = new URL(n.link).href;
  const text = n.body.trim() || n.title;
  const body = n.link && !headers.Click ? `${text}\n${n.link}` : text;
  return { headers, body: cutToBytes(body, MAX_MESSAGE_BYTES) };
}
