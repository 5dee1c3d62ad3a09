// The serving client's parsing against a peer on a real Unix socket that writes the bytes a
// serving process writes — split wherever TCP/Unix sockets may split them — so the cases the
// Python server rarely produces on cue are pinned: an SSE event and a UTF-8 character cut
// across chunks, a 429 with Retry-After, a body that is not the protocol, nobody listening.
// The real serving process is exercised through this client in
// worker/integration/serving.integration.test.ts.
import fs from "node:fs";
import http from "node:http";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServeStreamEvent } from "@/contracts/deployments/serving";
import { ServingClient, ServingProtocolError, ServingUnreachable } from "./serving-client";

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "ty-client-"));
const socketPath = path.join(dir, "serve.sock");
const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));

const peer = http.createServer(async (req, res) => {
  if (req.url === "/stream") {
    res.writeHead(200, { "content-type": "text/event-stream" });
    const bytes = Buffer.from('event: metadata\ndata: {"release": "rel_1", "model": "m"}\n\nevent: delta\ndata: {"text": "h\u00e9 \ud83d\ude42"}\n\nevent: heartbeat\ndata: {}\n\nevent: result\ndata: {"promptTokens": 3, "generatedTokens": 2, "finishReason": "length"}\n\n', "utf8");
    const emoji = bytes.indexOf(Buffer.from("\ud83d\ude42", "utf8"));
    for (const [a, b] of [[0, 20], [20, emoji + 2], [emoji + 2, bytes.length]] as const) {
      res.write(bytes.subarray(a, b)); // cuts an event in half and the emoji after its 2nd byte
      await delay(20);
    }
    res.end();
  } else if (req.url === "/predict") {
    res.writeHead(429, { "content-type": "application/json", "retry-after": "3" });
    res.end(JSON.stringify({ error: { code: "overloaded", message: "queue full" } }));
  } else {
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ state: "ready" })); // not a ZServingHealth
  }
});

beforeAll(() => new Promise<void>((resolve) => peer.listen(socketPath, resolve)));
afterAll(() => {
  peer.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe("ServingClient", () => {
  it("parses a stream whose events and characters arrive cut across chunks, over a socket path and over a duplex stream", async () => {
    for (const client of [new ServingClient({ socketPath }), new ServingClient({ openStream: async () => net.connect(socketPath) })]) {
      const events: ServeStreamEvent[] = [];
      const done = await client.stream({ prompt: "hi" }, (e) => events.push(e));
      expect(events.map((e) => e.type)).toEqual(["metadata", "delta", "heartbeat", "result"]);
      expect(events[1]).toEqual({ type: "delta", text: "hé 🙂" });
      expect(done).toEqual({ ok: true, value: { terminal: events[3] } });
    }
  });

  it("returns a refusal with its code and Retry-After", async () => {
    const answer = await new ServingClient({ socketPath }).predict({ rows: [{ a: 1 }] });
    expect(answer).toEqual({ ok: false, status: 429, error: { code: "overloaded", message: "queue full" }, retryAfterSeconds: 3 });
  });

  it("throws ServingProtocolError for a 200 that is not the contract's shape", async () => {
    await expect(new ServingClient({ socketPath }).health()).rejects.toBeInstanceOf(ServingProtocolError);
  });

  it("throws ServingUnreachable when nothing listens on the socket", async () => {
    await expect(new ServingClient({ socketPath: path.join(dir, "nobody.sock") }).health()).rejects.toBeInstanceOf(ServingUnreachable);
  });
});
