/**
 * The CLI pointed at a server that is not running says so within seconds (it used to
 * retry silently for five minutes), and one that accepts connections but never answers
 * hits a time limit instead of hanging. Real CLI processes; the "servers" are a free port
 * with nothing listening and a raw TCP server that never replies.
 */
import net from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "@/server/testing/cli-process";
import { freePort, REPO } from "@/server/testing/server-harness";
import { QUERY_TIMEOUT_MS } from "./api-client";

const PENGUINS = path.join(REPO, "tests/fixtures/tabular/penguins.csv");

async function timed(url: string, args: string[]) {
  const started = Date.now();
  const r = await runCli(url, args).done;
  return { ...r, seconds: (Date.now() - started) / 1000 };
}

describe("a CLI whose server is not running", () => {
  let url: string;
  beforeAll(async () => {
    url = `http://127.0.0.1:${await freePort()}`;
  });

  it("says so within 10 s for experiments list", async () => {
    const r = await timed(url, ["experiments", "list"]);
    expect(r.code).toBe(1);
    expect(r.seconds).toBeLessThan(10);
    expect(r.stderr).toContain(`The Trainyard server at ${url} is not answering: is it running? Start it with \`npm start\``);
    expect(r.stdout).toBe("");
  });

  it("prints a JSON error object on stdout with --json, for train too", async () => {
    for (const args of [["experiments", "list", "--json"], ["train", "--data", PENGUINS, "--target", "species", "--json"]]) {
      const r = await timed(url, args);
      expect(r.code, args.join(" ")).toBe(1);
      expect(r.seconds).toBeLessThan(10);
      const out = JSON.parse(r.stdout) as { error: { message: string; code: string } };
      expect(out.error.code).toBe("server_unreachable");
      expect(out.error.message).toMatch(/is not answering: is it running\?/);
    }
  });
});

describe("a CLI whose server accepts but never answers", () => {
  let server: net.Server;
  let url: string;
  const sockets: net.Socket[] = [];
  beforeAll(async () => {
    server = net.createServer((s) => sockets.push(s)); // reads the request, never replies
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  });
  afterAll(async () => {
    for (const s of sockets) s.destroy();
    await new Promise((r) => server.close(r));
  });

  it("gives up after the query time limit and says the server did not answer", { timeout: QUERY_TIMEOUT_MS + 30_000 }, async () => {
    const r = await timed(url, ["experiments", "show", "some-id", "--json"]);
    expect(r.code).toBe(1);
    expect(r.seconds).toBeGreaterThanOrEqual(QUERY_TIMEOUT_MS / 1000 - 1);
    expect(r.seconds).toBeLessThan(QUERY_TIMEOUT_MS / 1000 + 15);
    expect(JSON.parse(r.stdout)).toEqual({
      error: { code: "server_timeout", message: `The Trainyard server at ${url} accepted the connection but did not answer in time; it may be overloaded or stuck (see its output).` },
    });
  });
});
