/**
 * An agent running a search through `trainyard mcp` (issue 17): the SDK's real Client over
 * stdio spawns the real CLI process, which talks to a real server with real recipes and a
 * real worker. The owner starts an "agents" search on penguins (1 trial); the agent, with
 * a full-access token, is refused an out-of-space proposal with both reasons, makes an
 * accepted proposal and sees it trained on validation, is refused a second (still waiting
 * proposals count) with the budget reason, cannot reach another project's search, trial or experiment, never reads a
 * test score, and is refused promote_version while the owner's policy is off (which a token
 * cannot turn on). A read-only token is offered the read tools only. (A promotion itself is
 * in mcp.integration.test.ts, on an experiment's registered version.)
 */
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { createTRPCClient, httpLink } from "@trpc/client";
import superjson from "superjson";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AppRouter } from "@/server/api/root";
import { REPO, waitFor } from "@/server/testing/server-harness";
import { realRecipesServerForBlock } from "@/server/testing/real-recipes-server";
import { upload, waitForProfile } from "@/server/datasets/test-support";
import { cliAsync } from "@/tests/support/server-process";
import { agentEnv, connectAgent, keysOf, type Agent } from "./mcp-test-support";

const PENGUINS = path.join(REPO, "tests/fixtures/tabular/penguins.csv");
const WRITE_TOOLS = ["approve_promotion", "cancel_trial", "compare_on_holdout", "promote_version", "propose_experiment"];
/** Keys that hold test-partition scores or receipts in the API's owner views (searches.get's `final`, experiments.get, the gate). */
const TEST_KEYS = ["final", "candidate", "baseline", "comparison", "results", "receipt", "primaryValue", "baselineValue", "evidence", "selected", "improvement"];
const GBM = { family: "GBM", "GBM.learning_rate": 0.05, "GBM.num_leaves": 31, "GBM.min_data_in_leaf": 10 };

interface Trial {
  id: string;
  number: number;
  status: string;
  validationValue: number | null;
  proposer: { kind: string; name: string | null };
  hypothesis: string | null;
}

describe("trainyard mcp: an agent in a search", { timeout: 600_000 }, () => {
  const { home, server } = realRecipesServerForBlock();
  let projectId: string;
  let searchId: string;
  let token: string;
  let agent: Agent;
  let otherAgent: Agent;
  let reader: Agent;
  /** Every answer an agent got, to search for test scores at the end. */
  const answers: unknown[] = [];
  const call = async (a: Agent, name: string, args?: Record<string, unknown>) => {
    const r = await a.call(name, args);
    answers.push(r.data, r.text);
    return r;
  };

  beforeAll(async () => {
    projectId = (await server.client.projects.create.mutate({ name: "Penguins" })).id;
    await server.client.projects.create.mutate({ name: "Other" });
    const agents = (async () => {
      const [full, readOnly] = await Promise.all([
        cliAsync(["token", "create", "claude", "--scope", "agent"], { TRAINYARD_HOME: home.home }),
        cliAsync(["token", "create", "reader", "--read-only"], { TRAINYARD_HOME: home.home }),
      ]);
      expect(full.status, full.stderr).toBe(0);
      expect(readOnly.status, readOnly.stderr).toBe(0);
      token = full.stdout.trim();
      [agent, otherAgent, reader] = await Promise.all([
        connectAgent(server.url, token, "Penguins"),
        connectAgent(server.url, token, "Other"),
        connectAgent(server.url, readOnly.stdout.trim(), "Penguins"),
      ]);
    })();
    const up = await upload(server, projectId, "penguins.csv", readFileSync(PENGUINS));
    expect(up.status, JSON.stringify(up.body)).toBe(201);
    const datasetId = up.body.datasetId!;
    expect((await waitForProfile(server, datasetId)).status).toBe("ready");
    // Only proposals run; one trial of at most 1 minute, in a budget that does not end before the agent proposes.
    const s = await server.client.searches.start.mutate({
      opId: randomUUID(),
      projectId,
      datasetId,
      target: "species",
      task: "multiclass",
      metric: "accuracy",
      budget: { maxTrials: 1, maxWallMinutes: 5, perTrialMinutes: 1 },
      strategy: "agents",
    });
    searchId = s.id;
    await agents;
  });
  afterAll(async () => {
    await Promise.all([agent?.client.close(), otherAgent?.client.close(), reader?.client.close()]);
  });

  it("offers an agent token the search tools and a read-only one the read tools only", async () => {
    const names = (await agent.client.listTools()).tools;
    for (const n of [...WRITE_TOOLS, "list_searches", "get_search", "get_validation_results"]) expect(names.map((t) => t.name)).toContain(n);
    const propose = names.find((t) => t.name === "propose_experiment")!;
    expect(propose.inputSchema).toMatchObject({ type: "object", properties: { searchId: { type: "string" }, hypothesis: { type: "string" }, params: { type: "object" } }, required: ["searchId", "hypothesis", "params"] });
    expect(propose.description).toContain("GBM.learning_rate: a number from 0.01 to 0.3");
    expect(propose.annotations?.readOnlyHint).toBe(false);
    const readable = (await reader.client.listTools()).tools.map((t) => t.name);
    for (const n of WRITE_TOOLS) expect(readable).not.toContain(n);
    expect(readable).toContain("get_search");
    const refused = await reader.call("propose_experiment", { searchId, hypothesis: "x", params: GBM });
    expect(refused).toMatchObject({ isError: true, text: expect.stringMatching(/propose_experiment not found/) });
    expect(reader.stderr()).toContain("read-only token: read tools only");
  });

  it("lists the search with its budget, and the project's experiments", async () => {
    const listed = await call(agent, "list_searches");
    expect(listed.isError, listed.text).toBe(false);
    expect(listed.data).toMatchObject({ searches: [{ id: searchId, strategy: "agents", status: "running", metric: "accuracy", direction: "higher_is_better", budget: { maxTrials: 1, trialsBooked: 0, trialsLeft: 1 } }] });
    const exps = await call(agent, "list_experiments");
    expect(exps.isError, exps.text).toBe(false);
    expect(exps.data).toMatchObject({ total: 0 });
  });

  it("refuses an out-of-space proposal with every reason, and records it", async () => {
    const r = await call(agent, "propose_experiment", { searchId, hypothesis: "a much larger learning rate and a depth cap", params: { ...GBM, "GBM.learning_rate": 5, "GBM.max_depth": 6 } });
    expect(r.isError, r.text).toBe(false);
    expect(r.data).toMatchObject({ accepted: false, status: null });
    const reasons = r.data.reasons as string[];
    expect(reasons).toEqual(expect.arrayContaining([expect.stringMatching(/^GBM\.learning_rate must be between 0\.01 and 0\.3 \(got 5\)/), "GBM.max_depth is not a parameter of this search's space."]));
    expect(reasons).toHaveLength(2);
  });

  it("accepts a proposal, then refuses another with the budget reason", async () => {
    const first = await call(agent, "propose_experiment", { searchId, hypothesis: "GBM with a moderate learning rate separates the species", params: GBM, opId: "agent-proposal-1" });
    expect(first.data, first.text).toMatchObject({ accepted: true, status: "proposed", reasons: [] });
    // The same opId again answers the first proposal, not a second one.
    expect((await call(agent, "propose_experiment", { searchId, hypothesis: "again", params: GBM, opId: "agent-proposal-1" })).data).toMatchObject({ accepted: true, trialId: first.data.trialId });
    const over = await call(agent, "propose_experiment", { searchId, hypothesis: "a random forest needs no tuning here", params: { family: "RF", "RF.n_estimators": 100, "RF.max_features": "sqrt", "RF.min_samples_leaf": 1 } });
    expect(over.data).toMatchObject({ accepted: false });
    expect(over.data.reasons).toEqual([expect.stringMatching(/^The budget of 1 trials? is spent/)]);
    const s = await call(agent, "get_search", { searchId });
    const trials = s.data.trials as Trial[];
    expect(trials.find((t) => t.id === first.data.trialId)).toMatchObject({ proposer: { kind: "agent", name: "claude" }, hypothesis: "GBM with a moderate learning rate separates the species" });
    expect(trials.filter((t) => t.status === "rejected")).toHaveLength(2);
  });

  it("answers another project's search, trial and experiment as not found", async () => {
    const s = (await call(agent, "get_search", { searchId })).data as { trials: Trial[] };
    const trialId = s.trials[0]!.id;
    const nf = (what: string, id: string) => ({ isError: true, text: `No ${what} "${id}" in project "Other".` });
    expect(await call(otherAgent, "get_search", { searchId })).toMatchObject(nf("search", searchId));
    expect(await call(otherAgent, "get_validation_results", { searchId })).toMatchObject(nf("search", searchId));
    expect(await call(otherAgent, "propose_experiment", { searchId, hypothesis: "from elsewhere", params: GBM })).toMatchObject(nf("search", searchId));
    expect(await call(otherAgent, "cancel_trial", { trialId })).toMatchObject(nf("trial", trialId));
    expect((await call(otherAgent, "list_searches")).data).toEqual({ searches: [] });
  });

  it("sees the accepted proposal trained, scored on validation only", async () => {
    const trained = await waitFor("the first proposal to train", async () => {
      const r = await call(agent, "get_search", { searchId });
      const t = (r.data.trials as Trial[]).find((x) => x.number === 2);
      return t && !["proposed", "reserved", "running"].includes(t.status) ? t : undefined;
    }, 240_000, 2000);
    expect(trained.status).toBe("succeeded");
    expect(trained.validationValue).toBeGreaterThan(0.8);
    const v = await call(agent, "get_validation_results", { searchId });
    expect(v.data).toMatchObject({ partition: "validation", metric: "accuracy", trials: expect.arrayContaining([expect.objectContaining({ number: 2, validationValue: trained.validationValue })]) });
  });

  it("reports the outcome on validation when the search ends, and the final experiment is this project's only", async () => {
    const ended = await waitFor("the search to end", async () => {
      const r = await call(agent, "get_search", { searchId });
      return ["completed", "failed"].includes(r.data.status as string) ? r.data : undefined;
    }, 300_000, 3000);
    expect(ended.status, String(ended.reason)).toBe("completed");
    expect(ended.outcome).toMatchObject({ kind: "candidate", baselineValidationValue: expect.any(Number) });
    const v = await call(agent, "get_validation_results", { searchId });
    expect(v.data.baselineValidationValue).toEqual((ended.outcome as { baselineValidationValue: number }).baselineValidationValue);
    // The owner's view holds the one test scoring; no agent answer does.
    const owner = await server.client.searches.get.query({ id: searchId });
    expect(owner.final?.candidate).not.toBeNull();
    const finalId = owner.final!.experimentId;
    const listed = await call(agent, "list_experiments");
    expect(listed.data).toMatchObject({ total: 1, experiments: [{ id: finalId }] });
    expect(await call(otherAgent, "get_experiment", { experimentId: finalId })).toMatchObject({ isError: true, text: `No experiment "${finalId}" in project "Other".` });
  });

  it("refuses promote_version while the owner's policy is off, and a token cannot turn it on", async () => {
    const promote = { modelId: "no-such-model", version: 1, expectedRevision: 1, reason: "the search's chosen model" };
    const off = await call(agent, "promote_version", promote);
    expect(off.isError).toBe(true);
    expect(off.text).toMatch(/agents\.mayPromote.*is off.*Settings → Agents/);
    // The agent's token is refused at the door; a full token reaches the procedure, which is the owner's only.
    const full = await cliAsync(["token", "create", "wide"], { TRAINYARD_HOME: home.home });
    for (const t of [token, full.stdout.trim()]) {
      const asToken = createTRPCClient<AppRouter>({ links: [httpLink({ url: `${server.url}/api/trpc`, transformer: superjson, headers: { authorization: `Bearer ${t}` } })] });
      const err = (await asToken.settings.updateAgents.mutate({ values: { mayPromote: true }, revision: 0 }).catch((e: unknown) => e)) as { data?: { httpStatus?: number }; meta?: { response?: Response } };
      // The guard answers the agent's token before tRPC does, so its status is on the response.
      expect(err.data?.httpStatus ?? err.meta?.response?.status).toBe(403);
    }
    expect((await server.client.settings.agents.query()).values.mayPromote).toBe(false);
    // Once the owner allows it, the tool goes on to the model, which must be this project's.
    await server.client.settings.updateAgents.mutate({ values: { mayPromote: true }, revision: 0 });
    expect(await call(agent, "promote_version", promote)).toMatchObject({ isError: true, text: 'No model "no-such-model" in project "Penguins".' });
  });

  it("refuses to start with a full token unless told --allow-full-token", async () => {
    const full = await cliAsync(["token", "create", "too-wide"], { TRAINYARD_HOME: home.home });
    const refused = await cliAsync(["mcp", "--project", "Penguins"], agentEnv(server.url, full.stdout.trim()));
    expect(refused.status).toBe(2);
    expect(refused.stderr).toMatch(/refuses to start: the token has the full scope.*--scope agent.*--allow-full-token/);
    const allowed = await connectAgent(server.url, full.stdout.trim(), "Penguins", ["--allow-full-token"]);
    try {
      expect((await allowed.client.listTools()).tools.map((t) => t.name)).toContain("propose_experiment");
      expect(allowed.stderr()).toContain("(full token)");
    } finally {
      await allowed.client.close();
    }
  });

  it("never answered a test score, in any tool result", () => {
    expect(answers.length).toBeGreaterThan(20);
    for (const a of answers) {
      const value = typeof a === "string" ? (a.startsWith("{") ? JSON.parse(a) : a) : a;
      const keys = keysOf(value);
      for (const k of TEST_KEYS) expect(keys, k).not.toContain(k);
      expect(JSON.stringify(value)).not.toMatch(/"test"|partition":"test|test_/);
    }
  });
});
