/**
 * Reserved holdouts and promotion policies through the CLI, the real server, worker and
 * recipes (issue 32), on one server whose tests build on each other (the second uses the
 * model the first registered): a holdout is never a dataset; an experiment started after it
 * keeps its rows out (the count shown); versions trained on different snapshots are
 * compared on the rows none of them learnt from, with a paired interval; a version trained
 * before the holdout is scored only on the holdout rows it never saw; deleting a dataset made
 * of the same bytes leaves the holdout working. Then a policy: each new version waits for
 * approval (a webhook tells the owner), expires, is rejected or approved (the alias moves),
 * and in automatic mode a version without a real gain is never promoted; an approval the
 * controller died before carrying out is carried out once after a restart.
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import Database from "better-sqlite3";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "@/server/testing/cli-process";
import { trainedOn } from "@/server/deployments/test-support";
import { makeTestHome, REPO, startTestServer, type TestHome, type TestServer } from "@/server/testing/server-harness";
import { cliAsync } from "@/tests/support/server-process";
import { connectAgent, keysOf } from "@/server/mcp/mcp-test-support";

const PENGUINS = path.join(REPO, "tests/fixtures/tabular/penguins.csv");

interface Compared {
  holdout: { id: string; name: string };
  metric: string;
  direction: string;
  rows: number;
  excluded: { total: number; byVersion: Record<string, number> };
  results: { version: number; value: number }[];
  difference: { estimate: number; low: number; high: number; confidence: number; of: [number, number] };
}

describe("reserved holdouts and promotion policies", { timeout: 900_000 }, () => {
  let home: TestHome;
  let server: TestServer;
  let clockFile: string;
  beforeAll(async () => {
    home = makeTestHome();
    clockFile = path.join(home.scratch, "clock"); // absent: real time
    server = await startTestServer({ home, env: serverEnv() });
  });
  afterAll(() => server?.stop());
  const serverEnv = () => ({ TRAINYARD_TRAINING_DIR: path.join(REPO, "training"), TRAINYARD_TEST_CLOCK_FILE: clockFile });
  /** The files the first test writes, which the second trains on again. */
  let withSomeFile = "";

  const cli = async (args: string[]) => {
    const r = await runCli(server.url, args).done;
    // The CLI's --json answer, in the shape the test expects of it (toMatchObject checks the rest).
    return { ...r, json: <T = Record<string, unknown>>() => JSON.parse(r.stdout) as T };
  };
  const train = async (file: string) => {
    // The island a penguin was seen on: hard enough that the scores are not all 1.
    const r = await cli(["train", "--data", file, "--target", "island", "--models", "GBM", "--max-minutes", "3", "--out", path.join(home.scratch, "exports"), "--json"]);
    expect(r.code, r.stderr).toBe(0);
    return r.json<{ experimentId: string; status: string; split: { heldOutRows: number | null } }>();
  };
  const register = async (experimentId: string) => {
    const r = await cli(["models", "register", "--experiment", experimentId, "--model", "penguins", "--json"]);
    expect(r.code, r.stderr).toBe(0);
    return (r.json<{ version: { number: number } }>()).version.number;
  };

  it("keeps the holdout out of training and compares versions on the rows none of them learnt from", async () => {
    const [header, ...rows] = readFileSync(PENGUINS, "utf8").trim().split("\n");
    const file = (name: string, lines: string[]) => {
      const p = path.join(home.scratch, name);
      writeFileSync(p, [header, ...lines].join("\n") + "\n");
      return p;
    };
    const held = rows.filter((_, i) => i % 4 === 0); // 86 rows
    const rest = rows.filter((_, i) => i % 4 !== 0);
    const holdoutFile = file("newest.csv", held);
    const before = file("before.csv", rows.filter((_, i) => i % 8 < 4)); // trained before the holdout: 43 of its rows
    const withSome = file("with-some.csv", [...rest, ...held.slice(0, 15)]); // 15 holdout rows slipped in
    withSomeFile = withSome;
    const smaller = file("smaller.csv", rest.filter((_, i) => i % 3 !== 0));

    // Version 1: trained before any holdout was reserved.
    const v1 = await register((await train(before)).experimentId);
    expect((await server.client.projects.list.query({})).map((p) => p.name)).toContain("Default");

    const usage = await cli(["holdouts", "create", "--project", "Default", "--json"]);
    expect(usage.code).toBe(2);
    const nope = await cli(["holdouts", "create", "--project", "Nope", "--data", holdoutFile, "--json"]);
    expect(nope.code).toBe(1);
    expect(nope.json()).toEqual({ error: { code: "not_found", message: expect.stringContaining('No project named "Nope"') } });
    const created = await cli(["holdouts", "create", "--project", "Default", "--data", holdoutFile, "--name", "newest penguins", "--json"]);
    expect(created.code, created.stderr).toBe(0);
    const holdout = created.json<{ id: string; rows: number; name: string }>();
    expect(holdout).toMatchObject({ id: expect.any(String), rows: 86, name: "newest penguins" });
    const again = await cli(["holdouts", "create", "--project", "Default", "--data", holdoutFile, "--json"]);
    expect(again.json()).toMatchObject({ id: holdout.id, reused: true });

    // Never offered as data: no dataset of the project is made of the holdout's bytes.
    const project = (await server.client.projects.list.query({})).find((p) => p.name === "Default")!;
    const datasets = await server.client.datasets.list.query({ projectId: project.id });
    const holdoutSha = (await server.client.holdouts.list.query({ projectId: project.id }))[0]!.sha256;
    expect(datasets.map((d) => d.snapshotSha256)).not.toContain(holdoutSha);

    // Trained after it: the 15 overlapping rows are kept out, and the run says so.
    const a = await train(withSome);
    expect(a.status).toBe("succeeded");
    expect(a.split.heldOutRows).toBe(15);
    const b = await train(smaller);
    expect(b.split.heldOutRows).toBe(0);
    const v2 = await register(a.experimentId);
    const v3 = await register(b.experimentId);

    const compared = await cli(["holdouts", "compare", "penguins", "--versions", `${v2},${v3}`, "--json"]);
    expect(compared.code, compared.stderr).toBe(0);
    const r = compared.json<Compared>();
    expect(r).toMatchObject({ holdout: { id: holdout.id, name: "newest penguins" }, metric: "accuracy", direction: "higher_is_better", rows: 86 });
    expect(r.excluded).toEqual({ total: 0, byVersion: { [v2]: 0, [v3]: 0 } });
    expect(r.results.map((x) => x.version)).toEqual([v2, v3]);
    for (const x of r.results) expect(x.value).toBeGreaterThan(0.4);
    expect(r.difference.of).toEqual([v2, v3]);
    expect(r.difference.estimate).toBeCloseTo(r.results[1]!.value - r.results[0]!.value, 10);
    expect(r.difference.low).toBeLessThanOrEqual(r.difference.estimate);
    expect(r.difference.high).toBeGreaterThanOrEqual(r.difference.estimate);

    // Version 1 learnt 43 of the holdout's rows before it was reserved: both are scored on the other 43.
    const withOld = (await cli(["holdouts", "compare", "penguins", "--versions", `${v1},${v2}`, "--holdout", holdout.id, "--json"])).json<Compared>();
    expect(withOld.rows).toBe(43);
    expect(withOld.excluded).toEqual({ total: 43, byVersion: { [v1]: 43, [v2]: 0 } });

    // A dataset made of the same bytes, deleted: the holdout keeps them and still compares.
    const up = await cli(["dataset", "upload", holdoutFile, "--project", "Default"]);
    expect(up.code, up.stderr).toBe(0);
    const copy = (await server.client.datasets.list.query({ projectId: project.id })).find((d) => d.snapshotSha256 === holdoutSha)!;
    await expect.poll(async () => (await server.client.datasets.get.query({ id: copy.id })).status, { timeout: 60_000, interval: 500 }).toBe("ready");
    const preview = await server.client.datasets.deletePreview.query({ id: copy.id });
    expect(preview.removesSnapshot).toBe(false);
    await server.client.datasets.delete.mutate({ id: copy.id });
    const after = (await cli(["holdouts", "compare", "penguins", "--versions", `${v2},${v3}`, "--json"])).json<Compared>();
    expect(after.results).toEqual(r.results);

    // An agent learns which version the holdout favours, never a value, from any tool.
    const made = await cliAsync(["token", "create", "claude", "--scope", "agent"], { TRAINYARD_HOME: home.home });
    expect(made.status, made.stderr).toBe(0);
    const agent = await connectAgent(server.url, made.stdout.trim(), "Default");
    try {
      const models = await agent.call("list_models");
      const modelId = (models.data.models as { id: string; name: string }[]).find((m) => m.name === "penguins")!.id;
      const verdict = await agent.call("compare_on_holdout", { modelId, versions: [v2, v3] });
      expect(verdict.isError, verdict.text).toBe(false);
      const expected = r.difference.low > 0 ? "second_better" : r.difference.high < 0 ? "first_better" : "no_clear_difference"; // accuracy: higher is better
      expect(verdict.data).toMatchObject({ modelId, holdoutName: "newest penguins", versions: [v2, v3], rows: 86, rowsLeftOut: 0, verdict: expected });
      const answers = [models, verdict, await agent.call("list_experiments"), await agent.call("get_experiment", { experimentId: a.experimentId })];
      const text = JSON.stringify(answers);
      const values = [...r.results.map((x) => x.value), r.difference.estimate, r.difference.low, r.difference.high].filter((v) => !Number.isInteger(v));
      expect(values.length).toBeGreaterThan(2); // else there is nothing to look for
      for (const value of values) {
        expect(text).not.toContain(String(value));
        expect(text).not.toContain(value.toFixed(4));
      }
      for (const key of ["results", "difference", "low", "high", "estimate"]) expect(keysOf(answers.map((x) => x.data))).not.toContain(key);
    } finally {
      await agent.client.close();
    }

    // Refusals name what is wrong.
    const one = await cli(["holdouts", "compare", "penguins", "--versions", "1", "--json"]);
    expect(one.code).toBe(2);
    const missing = await cli(["holdouts", "compare", "penguins", "--versions", `${v2},9`, "--json"]);
    expect(missing.code).toBe(1);
    expect((missing.json<{ error: { message: string } }>()).error.message).toContain("has no version 9");
  });

  it("judges each new version by the policy: waits for approval (a webhook says so), expires, is rejected or approved (by the owner, or an agent once allowed); automatic never promotes no gain, nor past its daily count; a kill -9 between approval and move is finished once after the restart", async () => {
    const received: { title: string; kind: string }[] = [];
    const receiver = http.createServer((req, res) => {
      let body = "";
      req.on("data", (b: Buffer) => (body += b.toString("utf8")));
      req.on("end", () => {
        received.push(JSON.parse(body) as { title: string; kind: string });
        res.end("ok");
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    try {
      await server.client.notifications.createChannel.mutate({ kind: "webhook", name: "owner", url: `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hook` });
      const none = await cli(["policies", "show", "penguins", "--json"]);
      expect(none.code).toBe(1);
      expect(none.json()).toMatchObject({ error: { code: "not_found", message: expect.stringContaining("has no promotion policy") } });
      const bake = await cli(["policies", "set", "penguins", "--mode", "approval", "--bake-requests", "many", "--json"]);
      expect(bake.code).toBe(2);
      expect(bake.stderr).toContain("--bake-requests takes a whole number (got many)");
      const set = await cli(["policies", "set", "penguins", "--mode", "approval", "--json"]);
      expect(set.code, set.stderr).toBe(0);
      expect(set.json()).toMatchObject({ mode: "approval", pending: [], bake: null });

      type Shown = { pending: { id: string; version: number; evidence: { kind: string; words: string } }[]; candidates: { id: string; version: number; state: string; reason: string }[] };
      const shown = async () => (await cli(["policies", "show", "penguins", "--json"])).json<Shown>();
      // The policy judges versions, not training: each is one LightGBM on the same rows (deterministic, so
      // a retraining's score is equal, which the no-gain and equal-score gates below rely on).
      const project = (await server.client.projects.list.query({})).find((p) => p.name === "Default")!;
      const dataset = (await server.client.datasets.list.query({ projectId: project.id })).find((d) => d.name === path.basename(withSomeFile))!;
      const nextVersion = async () => register(await trainedOn(server, project.id, dataset.id, "island"));
      const waiting = async (version: number) => {
        await expect.poll(async () => (await shown()).pending.map((c) => c.version), { timeout: 60_000, interval: 1000 }).toContain(version);
        return (await shown()).pending.find((c) => c.version === version)!;
      };
      const selected = async () => ((await cli(["models", "show", "penguins", "--json"])).json<{ selected: { number: number } | null }>()).selected?.number ?? null;

      // Nothing is selected: a new version passes the gates as the first, and waits; the owner is told.
      const v4 = await nextVersion();
      const c4 = await waiting(v4);
      expect(c4.evidence).toMatchObject({ kind: "first", words: expect.stringContaining("Nothing is selected yet") });
      await expect.poll(() => received.map((n) => n.title), { timeout: 30_000 }).toContain(`Version ${v4} of “penguins” waits for your approval`);
      // Not decided in time (the policy's 72 hours): it expires.
      writeFileSync(clockFile, new Date(Date.now() + 73 * 3600_000).toISOString());
      await expect.poll(async () => (await shown()).candidates.find((c) => c.id === c4.id)?.state, { timeout: 30_000, interval: 1000 }).toBe("expired");
      const late = await cli(["policies", "approve", "penguins", c4.id, "--json"]);
      expect(late.code).toBe(1);
      expect(late.json()).toMatchObject({ error: { code: "not_pending" } });
      rmSync(clockFile); // real time again

      // Rejected: nothing moves.
      const v5 = await nextVersion();
      const c5 = await waiting(v5);
      const rejected = await cli(["policies", "reject", "penguins", c5.id, "--reason", "not this one", "--json"]);
      expect(rejected.code, rejected.stderr).toBe(0);
      expect((rejected.json<Shown>()).candidates.find((c) => c.id === c5.id)).toMatchObject({ state: "rejected", reason: "not this one" });
      expect(await selected()).toBeNull();

      // Approved: the alias moves to it, recorded as the policy's promotion.
      const v6 = await nextVersion();
      const c6 = await waiting(v6);
      const approved = await cli(["policies", "approve", "penguins", c6.id, "--json"]);
      expect(approved.code, approved.stderr).toBe(0);
      expect((approved.json<Shown>()).candidates.find((c) => c.id === c6.id)).toMatchObject({ state: "promoted" });
      expect(await selected()).toBe(v6);
      const history = (await cli(["models", "history", "penguins", "--json"])).json<{ to: { number: number }; actor: { kind: string } }[]>();
      expect(history[0]).toMatchObject({ to: { number: v6 }, actor: { kind: "policy" } });

      // Automatic: a version on the same data with no real gain is refused, and nothing moves.
      expect((await cli(["policies", "set", "penguins", "--mode", "automatic", "--json"])).code).toBe(0);
      const v7 = await nextVersion();
      await expect.poll(async () => (await shown()).candidates.find((c) => c.version === v7)?.state, { timeout: 60_000, interval: 1000 }).toBe("refused");
      expect((await shown()).candidates.find((c) => c.version === v7)!.reason).toMatch(/A policy promotes only a real gain/);
      expect(await selected()).toBe(v6);

      // With no minimum gain asked, an equal score passes the same-contract gate: v8 waits.
      const settings = await server.client.models.settings.query();
      await server.client.models.updateSettings.mutate({ revision: settings.revision, values: { ...settings.values, minUsefulGain: 0 } });
      expect((await cli(["policies", "set", "penguins", "--mode", "approval", "--json"])).code).toBe(0);
      const v8 = await nextVersion();
      const c8 = await waiting(v8);
      expect(c8.evidence).toMatchObject({ kind: "same_contract", improvement: 0 });

      // An agent may approve only once the owner lets agents promote; it learns no score.
      const made = await cliAsync(["token", "create", "approver", "--scope", "agent"], { TRAINYARD_HOME: home.home });
      const agent = await connectAgent(server.url, made.stdout.trim(), "Default");
      try {
        const modelId = ((await agent.call("list_models")).data.models as { id: string; name: string }[]).find((m) => m.name === "penguins")!.id;
        const ask = { modelId, version: v8, reason: "equal on the same test, newer data" };
        const off = await agent.call("approve_promotion", ask);
        expect(off).toMatchObject({ isError: true, text: expect.stringMatching(/agents\.mayPromote.*is off/) });
        const policy = await server.client.settings.agents.query();
        await server.client.settings.updateAgents.mutate({ revision: policy.revision, values: { mayPromote: true } });
        const on = await agent.call("approve_promotion", ask);
        expect(on.data).toEqual({ modelId, version: v8, state: "promoted", words: `Version ${v8} of "penguins" is now selected.` });
        expect(await selected()).toBe(v8);
      } finally {
        await agent.client.close();
      }

      // Automatic, with two policy promotions (v6, v8) within the last day: the next passing version waits instead (at most 1 a day).
      expect((await cli(["policies", "set", "penguins", "--mode", "automatic", "--json"])).code).toBe(0);
      const v9 = await nextVersion();
      const c9 = await waiting(v9);
      expect((await shown()).candidates.find((c) => c.id === c9.id)!.reason).toMatch(/automatic promotions used up: 2 in the last 24 hours \(at most 1\)/);
      expect(await selected()).toBe(v8);

      // The controller killed (kill -9) between an approval and its move: the row says
      // approved and nothing moved, as such a crash leaves it. Started again, it carries the
      // promotion out, once.
      await server.kill9();
      const db = new Database(path.join(home.home, "trainyard.db"));
      try {
        db.prepare("UPDATE PromotionCandidate SET state = 'approved' WHERE id = ?").run(c9.id);
      } finally {
        db.close();
      }
      server = await startTestServer({ home, env: serverEnv() });
      await expect.poll(async () => (await shown()).candidates.find((c) => c.id === c9.id)?.state, { timeout: 60_000, interval: 1000 }).toBe("promoted");
      expect(await selected()).toBe(v9);
      const moves = (await cli(["models", "history", "penguins", "--json"])).json<{ to: { number: number } }[]>();
      expect(moves.filter((e) => e.to.number === v9)).toHaveLength(1);
    } finally {
      receiver.close();
    }
  });
});
