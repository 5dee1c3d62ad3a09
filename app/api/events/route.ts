/**
 * Server-sent events: `GET /api/events?topics=project:ID,job:ID` (no topics = all).
 * Each message is one typed LiveEvent; a comment line every 15 s keeps proxies from
 * closing the stream. Nothing is replayed: a client that reconnects refetches.
 */
import { eventBus } from "@/server/events/bus";
import { guarded } from "@/server/http/route-auth";

export const dynamic = "force-dynamic";

function get(req: Request) {
  const topicsParam = new URL(req.url).searchParams.get("topics");
  const topics = topicsParam ? topicsParam.split(",").filter(Boolean).slice(0, 50) : null;
  const encoder = new TextEncoder();
  let cleanup = () => {};
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (text: string) => controller.enqueue(encoder.encode(text));
      send(`retry: 2000\n: connected\n\n`);
      const unsubscribe = eventBus().subscribe(topics, (e) => {
        send(`id: ${e.id}\nevent: ${e.event.type}\ndata: ${JSON.stringify({ ...e.event, topics: e.topics, at: e.at })}\n\n`);
      });
      const heartbeat = setInterval(() => send(`: keep-alive\n\n`), 15_000);
      cleanup = () => {
        clearInterval(heartbeat);
        unsubscribe();
      };
      req.signal.addEventListener("abort", () => {
        cleanup();
        try {
          controller.close();
        } catch {
          // already closed
        }
      });
    },
    cancel() {
      cleanup();
    },
  });
  return new Response(stream, {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    },
  });
}

export const GET = guarded("read", get);
