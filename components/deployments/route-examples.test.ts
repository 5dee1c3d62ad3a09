import { spawn } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { sseBlock } from "@/contracts/deployments/stream-events";
import type { FeatureSchemaEntry } from "@/contracts/recipes";
import { curlExample, curlInvocationsExample, curlStreamExample, exampleRow, pythonExample, pythonOpenAiExample, pythonStreamExample, STREAM_EXAMPLE } from "./route-examples";

/** A stand-in stream route on loopback writing the real wire format; records what it was sent. */
async function streamRoute(events: Parameters<typeof sseBlock>[0][]) {
  const seen: { auth?: string; body?: unknown } = {};
  const server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => (body += c.toString()));
    req.on("end", () => {
      Object.assign(seen, { auth: req.headers.authorization, body: JSON.parse(body) });
      res.writeHead(200, { "content-type": "text/event-stream" });
      for (const e of events) res.write(sseBlock(e));
      res.end();
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, close: () => server.close() };
}

/** Runs a Python example in a child process (python3, standard library only). */
async function runPython(code: string) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const p = spawn("python3", ["-c", code]);
    let stdout = "";
    let stderr = "";
    p.stdout.on("data", (c: Buffer) => (stdout += c.toString()));
    p.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    p.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

const feature = (f: Partial<FeatureSchemaEntry> & Pick<FeatureSchemaEntry, "name" | "kind">): FeatureSchemaEntry => ({ dtype: "object", nullable: false, usedByModel: true, example: null, ...f });

describe("the copyable route examples", () => {
  it("curl names the real URL, the key (or where it goes) and a row, quoting a single quote for the shell", () => {
    expect(curlExample("http://127.0.0.1:3000", "/api/deployments/d1/predict", null, { island: "Biscoe", note: "it's" })).toBe(
      [
        "curl -s -X POST 'http://127.0.0.1:3000/api/deployments/d1/predict' \\",
        "  -H 'Authorization: Bearer <your deployment key>' \\",
        "  -H 'content-type: application/json' \\",
        `  -d '{"rows":[{"island":"Biscoe","note":"it'\\''s"}]}'`,
      ].join("\n"),
    );
  });

  it("the MLflow curl sends the row as pandas' split orientation (columns, then values) to /invocations", () => {
    const curl = curlInvocationsExample("http://127.0.0.1:3000", "/api/deployments/d1/invocations", "tyd_k", { island: "Biscoe", note: "it's", sex: null });
    expect(curl.split("\n").slice(0, 3)).toEqual(["curl -s -X POST 'http://127.0.0.1:3000/api/deployments/d1/invocations' \\", "  -H 'Authorization: Bearer tyd_k' \\", "  -H 'content-type: application/json' \\"]);
    expect(curl.split("\n")[3]).toBe(`  -d '{"dataframe_split":{"columns":["island","note","sex"],"data":[["Biscoe","it'\\''s",null]]}}'`);
  });

  it("the example row takes each feature's training example, a seen category, or null", () => {
    const row = exampleRow([
      feature({ name: "bill_length_mm", kind: "numeric", example: 39.1, min: 32 }),
      feature({ name: "flipper", kind: "numeric", example: "181", min: 170 }),
      feature({ name: "island", kind: "categorical", categories: ["Biscoe", "Dream"] }),
      feature({ name: "sex", kind: "categorical", nullable: true }),
    ]);
    expect(row).toEqual({ bill_length_mm: 39.1, flipper: 181, island: "Biscoe", sex: null });
  });

  it("the Python example writes Python literals: None for a missing value and the key's placeholder", () => {
    const code = pythonExample("http://127.0.0.1:3000", "/api/deployments/d1/predict", null, { island: "Biscoe", sex: null, alive: true, mass: 3750 });
    expect(code).toContain('"Authorization": "Bearer <your deployment key>"');
    expect(code).toContain('"sex": None,');
    expect(code).toContain('"http://127.0.0.1:3000/api/deployments/d1/predict"');
    expect(code).toContain('"alive": True,');
  });

  it("the stream examples send the prompt with -N / urllib, and the Python one prints the deltas as the route sends them", async () => {
    expect(curlStreamExample("http://h", "/api/deployments/d1/stream", "tyd_k")).toContain("curl -N -X POST 'http://h/api/deployments/d1/stream'");
    const route = await streamRoute([
      { type: "metadata", release: { id: "r", number: 1, version: 1 }, model: "m" },
      { type: "delta", text: "Fünf" },
      { type: "heartbeat" },
      { type: "delta", text: "." },
      { type: "result", text: "Fünf.", promptTokens: 3, generatedTokens: 2, finishReason: "stop" },
    ]);
    try {
      const run = await runPython(pythonStreamExample(route.origin, "/api/deployments/d1/stream", "tyd_k"));
      expect(run.stderr).toBe("");
      expect(run).toMatchObject({ code: 0, stdout: "Fünf.\n" });
      expect(route.seen).toEqual({ auth: "Bearer tyd_k", body: STREAM_EXAMPLE });
    } finally {
      route.close();
    }
  });

  it("the openai client example takes the /v1 base URL and the key (or its placeholder), and is valid Python", async () => {
    const code = pythonOpenAiExample("http://127.0.0.1:3000", "/api/deployments/d1/v1", "tyd_k");
    expect(code).toContain('OpenAI(base_url="http://127.0.0.1:3000/api/deployments/d1/v1", api_key="tyd_k")');
    expect(pythonOpenAiExample("http://h", "/v1", null)).toContain('api_key="<your deployment key>"');
    // Run for real against a deployment in server/deployments/deployments-llm.integration.test.ts (it needs the openai package).
    const compiled = await runPython(`compile(${JSON.stringify(code)}, "example", "exec")`);
    expect(compiled).toMatchObject({ code: 0, stderr: "" });
  });

  it("the Python stream example stops with the message of an error event", async () => {
    const route = await streamRoute([{ type: "delta", text: "Fü" }, { type: "error", code: "release_changed", message: "send the request again" }]);
    try {
      const run = await runPython(pythonStreamExample(route.origin, "/s", null));
      expect(run.code).toBe(1);
      expect(run.stderr).toContain("send the request again");
    } finally {
      route.close();
    }
  });
});
