/**
 * The public stream route's wire format (`POST /api/deployments/:id/stream`, Server-Sent
 * Events), written and read in one place: each event is `event: <type>` and `data: <json of
 * the rest>`, a blank line after it. The server writes with `sseBlock`; the browser's chat
 * console, the benchmark and the tests read with `readStreamEvents`, each event checked
 * against ZDeploymentStreamEvent.
 */
import { ZDeploymentStreamEvent, type DeploymentStreamEvent } from "./serving";

export function sseBlock(e: DeploymentStreamEvent): string {
  const { type, ...rest } = e;
  return `event: ${type}\ndata: ${JSON.stringify(rest)}\n\n`;
}

/** One block (without its blank line) as the event it carries; throws on one outside the contract. */
export function parseSseBlock(block: string): DeploymentStreamEvent {
  const type = /^event: (.*)$/m.exec(block)?.[1];
  const data = /^data: (.*)$/m.exec(block)?.[1];
  return ZDeploymentStreamEvent.parse({ type, ...(data ? (JSON.parse(data) as object) : {}) });
}

/**
 * Reads a stream's events as they arrive (a block split across chunks, or a character split
 * across them, waits for its rest). `onEvent` returning true stops reading (the caller then
 * aborts the request); resolves with every event read.
 */
export async function readStreamEvents(body: ReadableStream<Uint8Array>, onEvent: (e: DeploymentStreamEvent) => boolean | void = () => false): Promise<DeploymentStreamEvent[]> {
  const events: DeploymentStreamEvent[] = [];
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let pending = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return events;
    pending += decoder.decode(value, { stream: true });
    let cut: number;
    while ((cut = pending.indexOf("\n\n")) >= 0) {
      const e = parseSseBlock(pending.slice(0, cut));
      pending = pending.slice(cut + 2);
      events.push(e);
      // The rest stays unread: the caller decides whether to abort the request.
      if (onEvent(e) === true) return events;
    }
  }
}
