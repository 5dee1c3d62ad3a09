/**
 * Schedules end to end (issue 31; docs/schedules.md) on one real server, the real worker
 * and real Quick baselines on penguins, with the schedules' clock injected
 * (TRAINYARD_TEST_CLOCK_FILE) so that slots pass without sleeping. Commands go through the
 * CLI, in the shapes the acceptance checks read. In order, on one schedule: a first run
 * trains and beats "nothing selected"; a slot during it coalesces and Run now is refused;
 * its end admits the one "latest data" run, a no-op on the same data; a file still being
 * written is not used until it stays unchanged; the controller killed with -9 during that
 * admission starts one experiment for it after the restart; a server stopped across five
 * slots makes one run when it starts; the lifetime cap finishes the schedule once; removing the
 * schedule leaves its experiments usable. A webhook receiver (a real HTTP server here)
 * verifies each notification's signature and sees each event once across the restart:
 * run 1 worth a look, the cap reached; the no-ops and the cancelled run stay quiet. The
 * agents' list_schedules answers the runs without results in words (they quote test scores).
 */
import { execFileSync, spawn } from "node:child_process";
import http from "node:http";
import { appendFileSync, copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectAgent, keysOf } from "@/server/mcp/mcp-test-support";
import type { ScheduleView } from "@/contracts/schedules/schedules";
import { runCli } from "@/server/testing/cli-process";
import { makeTestHome, REPO, startTestServer, waitFor, type TestHome, type TestServer } from "@/server/testing/server-harness";

const PENGUINS = path.join(REPO, "tests/fixtures/tabular/penguins.csv");
const SIX_HOURS = 6 * 3600_000;

let home: TestHome;
let server: TestServer;
let clockFile: string;
let dataFile: string;
let now = new Date("2030-01-07T08:00:00Z"); // a Monday
let id: string;
/** Verified webhook deliveries: webhook-id and kind. */
const received: { id: string; kind: string }[] = [];
let secret = "";
const receiver = http.createServer((req, res) => {
  let body = "";
  req.on("data", (c: Buffer) => (body += c.toString()));
  req.on("end", () => {
    try {
      const payload = new Webhook(secret).verify(body, req.headers as Record<string, string>) as { kind: string };
      received.push({ id: String(req.headers["webhook-id"]), kind: payload.kind });
      res.writeHead(200).end("ok");
    } catch {
      res.writeHead(401).end("bad signature");
    }
  });
});

const setClock = (t: Date) => {
  now = t;
  writeFileSync(clockFile, t.toISOString());
};
const start = () => startTestServer({ home, env: { TRAINYARD_TRAINING_DIR: path.join(REPO, "training"), TRAINYARD_TEST_CLOCK_FILE: clockFile } });

async function cli(args: string[]) {
  const r = await runCli(server.url, args).done;
  return { ...r, json: () => JSON.parse(r.stdout) as Record<string, unknown> };
}
const show = (): Promise<ScheduleView> => server.client.schedules.show.query({ id });
const runsOf = async (outcome?: string) => (await show()).runs.filter((r) => !outcome || r.outcome === outcome);

/** Rows of penguins again (the same columns), so the file has new data. */
function appendRows(n: number) {
  const lines = readFileSync(PENGUINS, "utf8").trim().split("\n").slice(1, n + 1);
  appendFileSync(dataFile, lines.join("\n") + "\n");
}

beforeAll(async () => {
  home = makeTestHome();
  clockFile = path.join(home.scratch, "clock");
  setClock(now);
  const dataDir = path.join(home.scratch, "incoming");
  mkdirSync(dataDir);
  dataFile = path.join(dataDir, "penguins.csv");
  copyFileSync(PENGUINS, dataFile);
  server = await start();
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const made = await server.client.notifications.createChannel.mutate({ kind: "webhook", name: "test receiver", url: `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook` });
  secret = made.secret!;
  const s = await server.client.settings.get.query();
  await server.client.settings.update.mutate({ revision: s.revision, values: { ...s.values, allowedRoots: [dataDir] } });
});
afterAll(async () => {
  await server?.stop();
  receiver.close();
});

describe("a schedule retrains on new data, without backlog", { timeout: 600_000 }, () => {
  it("refuses a file outside the allowed folders and a clock it cannot read, in words", async () => {
    const outside = await cli(["schedules", "create", "--project", "Sched", "--source", PENGUINS, "--target", "species", "--json"]);
    expect(outside.code).not.toBe(0);
    expect(outside.stderr).toMatch(/outside the worker's allowed roots.*Add its folder to This computer's allowed folders/);
    const badClock = await cli(["schedules", "create", "--project", "Sched", "--source", dataFile, "--target", "species", "--daily", "25:00", "--json"]);
    expect(badClock.code).not.toBe(0);
    expect(badClock.stderr).toMatch(/HH:MM/);
    const badEvery = await cli(["schedules", "create", "--project", "Sched", "--source", dataFile, "--target", "species", "--every", "6 hours"]);
    expect(badEvery.code).toBe(2);
  });

  it("runs now: the first run trains; a slot during it coalesces, Run now is refused, and its end admits one no-op on the same data", async () => {
    const made = await cli(["schedules", "create", "--project", "Sched", "--source", dataFile, "--target", "species", "--every", "6h", "--stable-seconds", "1", "--max-minutes", "3", "--json"]);
    expect(made.code, made.stderr).toBe(0);
    id = String(made.json().id);
    expect((await show()).nextSlotAt).toBe(new Date(now.getTime() + SIX_HOURS).toISOString());

    const first = await cli(["schedules", "run", id, "--json"]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.json()).toMatchObject({ outcome: "started", experimentId: expect.any(String) });
    const experimentId = String(first.json().experimentId);

    // A slot passes while run 1 trains: coalesced, and Run now is refused with the reason.
    setClock(new Date(now.getTime() + SIX_HOURS));
    await waitFor("the coalesced tick", async () => (await runsOf("coalesced")).length === 1, 30_000);
    expect((await show()).pendingLatest).toBe(true);
    const refused = await cli(["schedules", "run", id, "--json"]);
    expect(refused.code).toBe(1);
    expect(refused.json()).toMatchObject({ outcome: "refused", reason: expect.stringMatching(/Run 1 is still training/) });

    const exp = await waitFor("run 1's experiment to end", async () => {
      const e = await server.client.experiments.get.query({ id: experimentId });
      return e.status === "succeeded" || e.status === "failed" ? e : undefined;
    }, 300_000, 1000);
    expect(exp.status).toBe("succeeded");
    // Its end admits the one "latest data" run: the same bytes, so a no-op.
    await waitFor("the latest-data run", async () => (await runsOf()).some((r) => r.trigger === "latest" && r.outcome === "no_op"), 60_000);
    const s = await show();
    expect(s.pendingLatest).toBe(false);
    expect(s.runs.map((r) => [r.trigger, r.outcome])).toEqual([["manual", "started"], ["clock", "coalesced"], ["latest", "no_op"]]);
    expect(s.runs[2]!.reason).toBe("Data unchanged since run 1.");
    expect(s.runs[0]).toMatchObject({ status: "succeeded", result: expect.stringMatching(/^Run 1: accuracy 0\.\d+; no version predicting "species" is selected yet — register\?$/) });

    const shown = await cli(["schedules", "show", id, "--json"]);
    expect((shown.json().runs as { outcome: string }[]).map((r) => r.outcome)).toEqual(["started", "coalesced", "no_op"]);
    await waitFor("run 1's notification", () => received.some((r) => r.kind === "run_beat_incumbent"), 30_000);

    // An agent reads the same runs, without the results in words.
    const token = execFileSync(process.execPath, [path.join(REPO, "bin/trainyard.mjs"), "token", "create", "sched-agent", "--read-only"], { env: { ...process.env, TRAINYARD_HOME: home.home }, encoding: "utf8" });
    const agent = await connectAgent(server.url, token.trim(), "Sched");
    try {
      const listed = (await agent.call("list_schedules")).data as { schedules: { id: string; runs: { outcome: string; experimentId: string | null }[] }[] };
      expect(listed.schedules.map((x) => [x.id, x.runs.map((r) => r.outcome)])).toEqual([[id, ["started", "coalesced", "no_op"]]]);
      expect(listed.schedules[0]!.runs[0]!.experimentId).toBe(experimentId);
      expect(keysOf(listed)).not.toContain("result");
      expect(keysOf(listed)).not.toContain("lastResult");
      expect(JSON.stringify(listed)).not.toMatch(/accuracy/);
    } finally {
      await agent.client.close();
    }
  });

  it("an unchanged file at the next slot is a no-op that trains nothing", async () => {
    const before = (await server.client.experiments.list.query({ projectId: (await show()).projectId })).length;
    setClock(new Date(now.getTime() + SIX_HOURS));
    await waitFor("the clock tick's decision", async () => (await runsOf()).length === 4 && (await runsOf())[3]!.outcome !== "admitting", 60_000);
    expect((await runsOf())[3]).toMatchObject({ trigger: "clock", outcome: "no_op", reason: "Data unchanged since run 1." });
    expect((await server.client.experiments.list.query({ projectId: (await show()).projectId })).length).toBe(before);
  });

  it("waits for a file still being written; kill -9 during its admission still starts one experiment for it", async () => {
    // Rows keep arriving for about 4 s while a slot is due.
    const writer = spawn(process.execPath, ["-e", `const fs=require("fs");const rows=fs.readFileSync(${JSON.stringify(PENGUINS)},"utf8").trim().split("\\n").slice(1,41);let i=0;const t=setInterval(()=>{fs.appendFileSync(${JSON.stringify(dataFile)},rows[i++]+"\\n");if(i>=rows.length)clearInterval(t)},100);`]);
    const written = new Promise((resolve) => writer.once("exit", resolve));
    setClock(new Date(now.getTime() + SIX_HOURS));
    const waiting = await waitFor("a run waiting for the file", async () => {
      const r = (await runsOf("admitting"))[0];
      return r?.reason?.includes("changed within 1 s") ? r : undefined;
    }, 30_000);
    expect(waiting.step).toBe("observing");
    await written;

    // Once the file stays unchanged it is copied and read; kill -9 before the experiment starts.
    await waitFor("the admission past the copy", async () => ["profiling", "checking"].includes((await runsOf("admitting"))[0]?.step ?? ""), 60_000, 50);
    await server.kill9();
    server = await start();

    const started = await waitFor("the resumed run to start", async () => (await runsOf()).find((r) => r.seq === waiting.seq && r.outcome === "started"), 120_000);
    expect(started.rows).toBe(344 + 40);
    // One experiment for that run (its opId is the run's), and no other run.
    const experiments = await server.client.experiments.list.query({ projectId: (await show()).projectId });
    expect(experiments.map((e) => e.id).sort()).toEqual([(await runsOf())[0]!.experimentId, started.experimentId].sort());
    expect((await runsOf()).length).toBe(waiting.seq);
    // Not needed to train: stopped, which is recorded and not announced.
    await server.client.experiments.cancel.mutate({ id: started.experimentId! });
    await waitFor("its result", async () => (await runsOf()).find((r) => r.seq === waiting.seq)?.result?.includes("cancelled"), 60_000);
  });

  it("the server stopped across five slots makes one run when it starts again", async () => {
    const before = await runsOf();
    await server.stop();
    appendRows(3);
    setClock(new Date(now.getTime() + 5 * SIX_HOURS + 3600_000)); // 5 slots pass while stopped
    server = await start();
    const run = await waitFor("the one run for the missed slots", async () => (await runsOf()).find((r) => r.seq === before.length + 1 && r.outcome !== "admitting"), 120_000);
    expect(run).toMatchObject({ trigger: "clock", outcome: "started", rows: 344 + 40 + 3 });
    expect(run.reason).toMatch(/^Training on/);
    expect(new Date(run.slotAt).getTime()).toBe(now.getTime() - 3600_000); // the latest missed slot
    await new Promise((resolve) => setTimeout(resolve, 4000)); // more sweeps: still one
    expect((await runsOf()).length).toBe(before.length + 1);
    expect(new Date((await show()).nextSlotAt!).getTime()).toBe(now.getTime() + 5 * 3600_000);
    await server.client.experiments.cancel.mutate({ id: run.experimentId! });
    await waitFor("its result", async () => (await runsOf()).at(-1)?.result?.includes("cancelled"), 60_000);
  });

  it("the lifetime cap finishes the schedule once, and a raised cap lets it go on", async () => {
    const s = await show();
    const edited = await server.client.schedules.edit.mutate({ id, revision: s.revision, maxRuns: 3 });
    expect(edited.maxRuns).toBe(3);
    appendRows(5);
    setClock(new Date(now.getTime() + SIX_HOURS));
    const finished = await waitFor("the cap", async () => ((await show()).state === "finished" ? show() : undefined), 30_000);
    expect(finished.reason).toMatch(/cap of 3 runs/);
    expect(finished.runs).toHaveLength(s.runs.length); // no run admitted past the cap
    const runNow = await cli(["schedules", "run", id, "--json"]);
    expect(runNow.json()).toMatchObject({ outcome: "refused", reason: expect.stringMatching(/cap of 3 runs/) });
    const raised = await server.client.schedules.edit.mutate({ id, revision: finished.revision, maxRuns: 10 });
    expect(raised.state).toBe("active");
    // Each event once, across the restart: run 1 worth a look, then the cap; quiet for the rest.
    await waitFor("the cap's notification", () => received.some((r) => r.kind === "cap_reached"), 30_000);
    expect(received.map((r) => r.kind)).toEqual(["run_beat_incumbent", "cap_reached"]);
    expect(new Set(received.map((r) => r.id)).size).toBe(received.length);
  });

  it("pause and resume name the revision; a slot that already ran is passed; removing the schedule leaves its experiments usable", async () => {
    const paused = await cli(["schedules", "pause", id, "--json"]);
    expect(paused.code, paused.stderr).toBe(0);
    expect(paused.json()).toMatchObject({ state: "paused", nextSlotAt: null });
    const stale = (await show()).revision - 1;
    await expect(server.client.schedules.resume.mutate({ id, revision: stale })).rejects.toThrow(/changed since you read it/);
    expect((await cli(["schedules", "resume", id, "--json"])).json()).toMatchObject({ state: "active" });

    // A clock set back to before a slot that already ticked: that slot is passed, not run
    // again, and the schedule does not stick on it.
    const T0 = new Date("2030-01-07T08:00:00Z").getTime();
    expect((await runsOf()).some((r) => r.trigger === "clock" && r.slotAt === new Date(T0 + 2 * SIX_HOURS).toISOString())).toBe(true);
    const runsBefore = (await runsOf()).length;
    setClock(new Date(T0 + SIX_HOURS + 60_000));
    const s = await show();
    await server.client.schedules.edit.mutate({ id, revision: s.revision, clock: { kind: "every", minutes: 360 } });
    expect((await show()).nextSlotAt).toBe(new Date(T0 + 2 * SIX_HOURS).toISOString());
    setClock(new Date(T0 + 2 * SIX_HOURS + 60_000));
    await waitFor("the slot that already ran to be passed", async () => (await show()).nextSlotAt === new Date(T0 + 3 * SIX_HOURS).toISOString(), 30_000);
    expect((await runsOf()).length).toBe(runsBefore);

    const first = (await show()).runs[0]!;
    const removed = await cli(["schedules", "remove", id, "--json"]);
    expect(removed.code, removed.stderr).toBe(0);
    await expect(show()).rejects.toThrow(/no schedule/);
    const exp = await server.client.experiments.get.query({ id: first.experimentId! });
    expect(exp.status).toBe("succeeded");
    const version = await server.client.models.register.mutate({ experimentId: exp.id, newModelName: "penguins-scheduled" });
    expect(version).toBeTruthy();
  });
});
