import { describe, expect, it } from "vitest";
import type { DeploymentStreamEvent } from "./serving";
import { parseSseBlock, readStreamEvents, sseBlock } from "./stream-events";

const EVENTS: DeploymentStreamEvent[] = [
  { type: "metadata", release: { id: "rel_1", number: 1, version: 2 }, model: "gpt2" },
  { type: "delta", text: "Fünf" },
  { type: "heartbeat" },
  { type: "delta", text: " €" },
  { type: "result", text: "Fünf €", promptTokens: 4, generatedTokens: 2, finishReason: "stop" },
];

/** The bytes cut into pieces of `size`, splitting blocks and multi-byte characters alike. */
function chunked(bytes: Uint8Array, size: number): ReadableStream<Uint8Array> {
  let at = 0;
  return new ReadableStream({
    pull(c) {
      if (at >= bytes.length) return c.close();
      c.enqueue(bytes.slice(at, (at += size)));
    },
  });
}

describe("the stream route's events", () => {
  it("read back as written, however the bytes are cut", async () => {
    const bytes = new TextEncoder().encode(EVENTS.map(sseBlock).join(""));
    for (const size of [1, 2, 3, 7, 64, bytes.length]) expect(await readStreamEvents(chunked(bytes, size))).toEqual(EVENTS);
  });

  it("stop being read when the reader says so", async () => {
    const bytes = new TextEncoder().encode(EVENTS.map(sseBlock).join(""));
    const seen = await readStreamEvents(chunked(bytes, 5), (e) => e.type === "delta");
    expect(seen.map((e) => e.type)).toEqual(["metadata", "delta"]);
  });

  it("refuse an event outside the contract", () => {
    expect(() => parseSseBlock('event: delta\ndata: {"text": 3}')).toThrow();
    expect(() => parseSseBlock('event: surprise\ndata: {}')).toThrow();
  });
});
