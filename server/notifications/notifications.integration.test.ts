/**
 * The notifier in the real server process, against real HTTP receivers on loopback: a
 * webhook receiver that verifies every request with the standardwebhooks package, and a
 * stand-in ntfy server that records what a topic receives. Test reaches a channel; a
 * refused first attempt is retried and delivered once; a restart neither re-sends what
 * was delivered nor re-creates a notification whose event key was seen.
 */
import http from "node:http";
import path from "node:path";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WebhookPayload } from "@/contracts/notifications/notifications";
import { closeDb, openDb, type Db } from "@/server/db/client";
import { makeTestHome, startTestServer, waitFor, type TestHome, type TestServer } from "@/server/testing/server-harness";
import { notify } from "./notify";

interface Hit {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  status: number;
}

interface Receiver {
  url: string;
  hits: Hit[];
  close(): Promise<void>;
}

/** A loopback HTTP server that answers each POST with the status `answer` picks, and keeps what it got. */
async function receiver(answer: (hit: Omit<Hit, "status">) => number): Promise<Receiver> {
  const hits: Hit[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const hit = { path: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") };
      const status = answer(hit);
      hits.push({ ...hit, status });
      res.writeHead(status, { "content-type": "text/plain" }).end(status === 200 ? "ok" : "not now");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  return { url: `http://127.0.0.1:${port}`, hits, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

const SERVER_ENV = { TRAINYARD_NOTIFY_RETRY_MS: "300" };

describe("the notifier", () => {
  let home: TestHome;
  let server: TestServer;
  let db: Db;
  let secret = "";
  /** Answers 500 to this many requests before answering again as usual. */
  let refuseNext = 0;
  let webhook: Receiver;
  let ntfy: Receiver;
  let webhookChannelId = "";
  /** The payload of a request that verified, else null. */
  const verified = (hit: Omit<Hit, "status">): WebhookPayload | null => {
    try {
      return new Webhook(secret).verify(hit.body, hit.headers as Record<string, string>) as WebhookPayload;
    } catch {
      return null;
    }
  };
  /** Verified requests per webhook-id that the receiver accepted (answered 200). */
  const acceptedFor = (id: string) => webhook.hits.filter((h) => h.status === 200 && h.headers["webhook-id"] === id).length;

  beforeAll(async () => {
    webhook = await receiver((hit) => {
      if (!verified(hit)) return 401;
      if (refuseNext > 0) return refuseNext--, 500;
      return 200;
    });
    ntfy = await receiver(() => 200);
    home = makeTestHome();
    server = await startTestServer({ home, env: SERVER_ENV });
    db = openDb(path.join(home.home, "trainyard.db"));
  });
  afterAll(async () => {
    await server?.stop();
    await closeDb();
    await webhook?.close();
    await ntfy?.close();
  });

  it("refuses a channel URL that is not http(s)", async () => {
    await expect(server.client.notifications.createChannel.mutate({ kind: "webhook", name: "bad", url: "file:///etc/passwd" })).rejects.toThrow(/http/);
  });

  it("tests a webhook channel: one signed request that verifies with the secret shown once", async () => {
    const created = await server.client.notifications.createChannel.mutate({ kind: "webhook", name: "Receiver", url: `${webhook.url}/hooks/trainyard` });
    expect(created.secret).toMatch(/^whsec_/);
    secret = created.secret!;
    webhookChannelId = created.channel.id;
    expect(JSON.stringify(await server.client.notifications.channels.query())).not.toContain(secret);

    const result = await server.client.notifications.testChannel.mutate({ channelId: webhookChannelId });
    expect(result).toMatchObject({ delivered: true, status: 200, error: null });
    const hit = webhook.hits.find((h) => h.headers["webhook-id"] === result.notificationId)!;
    expect(hit.path).toBe("/hooks/trainyard");
    expect(verified(hit)).toMatchObject({ id: result.notificationId, kind: "test", title: "Trainyard test notification", link: `${server.url}/settings`, projectId: null });
    expect(acceptedFor(result.notificationId)).toBe(1);
  });

  it("retries a delivery the receiver refused and delivers it once", async () => {
    refuseNext = 1;
    const result = await server.client.notifications.testChannel.mutate({ channelId: webhookChannelId });
    expect(result).toMatchObject({ delivered: false, status: 500 });
    expect(result.error).toMatch(/HTTP 500/);
    const row = await waitFor("the retry to be delivered", async () => {
      const log = await server.client.notifications.deliveries.query();
      return log.find((d) => d.notificationId === result.notificationId && d.state === "delivered");
    }, 20_000);
    expect(row).toMatchObject({ attempts: 2, lastStatus: 200, lastError: null, channelName: "Receiver" });
    const tries = webhook.hits.filter((h) => h.headers["webhook-id"] === result.notificationId);
    expect(tries.map((h) => h.status)).toEqual([500, 200]);
    expect(acceptedFor(result.notificationId)).toBe(1);
  });

  it("posts an ntfy channel's message to its topic URL with its title, tags and link", async () => {
    const created = await server.client.notifications.createChannel.mutate({ kind: "ntfy", name: "Phone", url: `${ntfy.url}/trainyard-alerts` });
    expect(created.secret).toBeNull();
    const result = await server.client.notifications.testChannel.mutate({ channelId: created.channel.id });
    expect(result).toMatchObject({ delivered: true, status: 200 });
    expect(ntfy.hits).toHaveLength(1);
    const hit = ntfy.hits[0]!;
    expect(hit.path).toBe("/trainyard-alerts");
    expect(hit.headers).toMatchObject({ title: "Trainyard test notification", tags: "bell,test", click: `${server.url}/settings` });
    expect(hit.body).toContain('A test from Trainyard to the channel "Phone"');
  });

  it("sends an event to every enabled channel once, across a restart", async () => {
    const event = { id: "it:run-3-failed", kind: "run_failed" as const, projectId: null, title: "Run 3 failed", body: "The training ran out of memory.", link: "/projects/p1" };
    expect(await notify(db, event)).toEqual({ created: true });
    // Written from this process, it reaches the server's reconciler by its sweep.
    await waitFor("both channels to receive it", () => acceptedFor(event.id) === 1 && ntfy.hits.some((h) => h.headers.title === "Run 3 failed"), 20_000);

    await server.stop();
    server = await startTestServer({ home, env: SERVER_ENV });
    expect(await notify(db, event)).toEqual({ created: false });
    const sweeps = async () => Number(/trainyard_reconciler_sweeps_total\{reconciler="notifications"\} (\d+)/.exec(await (await fetch(`${server.url}/metrics`)).text())?.[1] ?? 0);
    // Two sweeps after the start: what was still due would have been sent by now.
    await waitFor("two sweeps of the notifier after the restart", async () => (await sweeps()) >= 2, 20_000);

    expect(acceptedFor(event.id)).toBe(1);
    expect(ntfy.hits.filter((h) => h.headers.title === "Run 3 failed")).toHaveLength(1);
    const ids = webhook.hits.filter((h) => h.status === 200).map((h) => h.headers["webhook-id"]);
    expect(new Set(ids).size).toBe(ids.length);
    const log = await server.client.notifications.deliveries.query();
    expect(log.filter((d) => d.notificationId === event.id).map((d) => [d.channelName, d.state, d.attempts])).toEqual(
      expect.arrayContaining([
        ["Receiver", "delivered", 1],
        ["Phone", "delivered", 1],
      ]),
    );
    expect(server.output()).not.toMatch(/notifications: (advancing|listing)/);
  });
});
