/**
 * `trainyard mcp` as an agent meets it: the SDK's real Client over stdio spawns the real
 * CLI process, which talks to a real server (real worker, real recipes) with a read-only
 * API token. Two projects hold penguins; one real training runs in the first. The tools
 * are listed with their input schemas; the first project's experiments, datasets, logs
 * and models answer; the second project's server answers not found for the first one's
 * ids; no answer carries a test-partition score.
 */
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO, waitFor } from "@/server/testing/server-harness";
import { realRecipesServerForBlock } from "@/server/testing/real-recipes-server";
import { upload, waitForProfile } from "@/server/datasets/test-support";
import { cliAsync } from "@/tests/support/server-process";
import { MAX_LOG_LINES } from "./tool-shapes";
import { agentEnv, connectAgent, keysOf, type Agent } from "./mcp-test-support";
import { MIN_VALUE_COUNT } from "./views";
import { ONE_LIGHTGBM } from "@/server/testing/one-model";

const PENGUINS = path.join(REPO, "tests/fixtures/tabular/penguins.csv");
/** What a read-only token is offered: the read tools, none of the writing ones (propose_experiment, cancel_trial, promote_version). */
const TOOLS = ["compare_experiments", "describe_inputs", "get_experiment", "get_job_logs", "get_monitoring", "get_search", "get_validation_results", "list_experiments", "list_models", "list_schedules", "list_searches"];
/** Keys of the API's experiment view that hold test-partition scores or rows. */
const TEST_KEYS = ["candidate", "baseline", "comparison", "results", "receipt", "mistakeRows", "primaryValue", "baselineValue", "evidence", "betterThanBaseline", "badges"];

describe("trainyard mcp (agent tools over stdio)", { timeout: 600_000 }, () => {
  const { home, server } = realRecipesServerForBlock();
  let penguins: { projectId: string; datasetId: string; experimentId: string };
  let otherDatasetId: string;
  let readOnlyToken: string;
  let agent: Agent;
  let otherAgent: Agent;

  beforeAll(async () => {
    const data = readFileSync(PENGUINS);
    const projectId = (await server.client.projects.create.mutate({ name: "Penguins" })).id;
    const otherId = (await server.client.projects.create.mutate({ name: "Other" })).id;
    // The token and the agents' processes start while the datasets profile and the experiment trains.
    const agents = (async () => {
      const created = await cliAsync(["token", "create", "agent", "--read-only"], { TRAINYARD_HOME: home.home });
      expect(created.status, created.stderr).toBe(0);
      readOnlyToken = created.stdout.trim();
      [agent, otherAgent] = await Promise.all([connectAgent(server.url, readOnlyToken, "Penguins"), connectAgent(server.url, readOnlyToken, "Other")]);
    })();
    const mine = await upload(server, projectId, "penguins.csv", data);
    expect(mine.status, JSON.stringify(mine.body)).toBe(201);
    const datasetId = mine.body.datasetId!;
    expect((await waitForProfile(server, datasetId)).status).toBe("ready");
    const exp = await server.client.experiments.start.mutate({
      opId: randomUUID(),
      projectId,
      datasetId,
      settings: { target: "species", task: "multiclass", metric: "accuracy", mode: "quick", maxMinutes: 2, hyperparameters: ONE_LIGHTGBM },
    });
    penguins = { projectId, datasetId, experimentId: exp.id };
    const other = await upload(server, otherId, "penguins-too.csv", data);
    expect(other.status, JSON.stringify(other.body)).toBe(201);
    otherDatasetId = other.body.datasetId!;
    expect((await waitForProfile(server, otherDatasetId)).status).toBe("ready");
    await agents;
  });
  afterAll(async () => {
    await agent?.client.close();
    await otherAgent?.client.close();
  });

  it("lists the read tools only to a read-only token, each with its input schema as JSON Schema and an output schema", async () => {
    const { tools } = await agent.client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(TOOLS);
    const logs = tools.find((t) => t.name === "get_job_logs")!;
    expect(logs.inputSchema).toMatchObject({
      type: "object",
      properties: { experimentId: { type: "string" }, step: { type: "string" }, maxLines: { type: "integer", maximum: MAX_LOG_LINES, default: 100 } },
      required: ["experimentId"],
      additionalProperties: false,
    });
    expect(tools.find((t) => t.name === "compare_experiments")!.inputSchema).toMatchObject({ properties: { experimentIds: { type: "array", minItems: 2 } } });
    // No user data in the trusted text: the project's name is not in any description.
    expect(JSON.stringify(tools.map((t) => t.description))).not.toContain("Penguins");
    for (const t of tools) {
      expect(t.outputSchema, t.name).toMatchObject({ type: "object" });
      expect(t.annotations?.readOnlyHint, t.name).toBe(true);
    }
  });

  it("refuses to start with a token the server does not know, saying why, with nothing on stdout", async () => {
    const r = await cliAsync(["mcp", "--project", "Penguins"], agentEnv(server.url, "tyt_not-a-real-token"));
    expect(r.status).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toMatch(/The API token is unknown\. The server needs a valid API token: set TRAINYARD_TOKEN/);
  });

  it("answers another project's experiment and dataset ids as not found, as it answers ids that do not exist", async () => {
    const foreign = await otherAgent.call("get_experiment", { experimentId: penguins.experimentId });
    expect(foreign).toMatchObject({ isError: true, text: `No experiment "${penguins.experimentId}" in project "Other".` });
    const missing = await otherAgent.call("get_experiment", { experimentId: "no-such-experiment" });
    expect(missing).toMatchObject({ isError: true, text: `No experiment "no-such-experiment" in project "Other".` });
    expect(await otherAgent.call("get_job_logs", { experimentId: penguins.experimentId })).toMatchObject({ isError: true, text: expect.stringContaining("No experiment") });
    expect(await otherAgent.call("describe_inputs", { datasetId: penguins.datasetId })).toMatchObject({ isError: true, text: `No dataset "${penguins.datasetId}" in project "Other".` });
    expect((await otherAgent.call("list_experiments")).data).toEqual({ experiments: [], total: 0 });
    const own = await otherAgent.call("describe_inputs");
    expect((own.data.datasets as { id: string }[]).map((d) => d.id)).toEqual([otherDatasetId]);
  });

  it("describes a dataset with aggregate statistics and the data issues for a target, never its rows", async () => {
    // The checks for a target are the wizard's; run them here the way it does.
    await server.client.datasets.startChecks.mutate({ id: penguins.datasetId, target: "species" });
    await waitFor("the checks", async () => (await server.client.datasets.checks.query({ id: penguins.datasetId, target: "species" }))?.status === "ready", 120_000, 500);
    const r = await agent.call("describe_inputs", { datasetId: penguins.datasetId, target: "species" });
    expect(r.isError, r.text).toBe(false);
    const [d] = r.data.datasets as { rowCount: number; columns: { name: string; type: string; commonValues: { value: string; count: number }[] }[]; checks: { task: string; classCounts: Record<string, number> } }[];
    expect(d!.rowCount).toBe(344);
    expect(d!.columns.map((c) => c.name)).toEqual(["species", "island", "bill_length_mm", "bill_depth_mm", "flipper_length_mm", "body_mass_g", "sex", "year"]);
    expect(d!.columns.find((c) => c.name === "species")!.commonValues).toEqual([
      { value: "Adelie", count: 152 },
      { value: "Gentoo", count: 124 },
      { value: "Chinstrap", count: 68 },
    ]);
    expect(d!.checks).toMatchObject({ task: "multiclass", classCounts: { Adelie: 152, Gentoo: 124, Chinstrap: 68 } });
    // Aggregates only: no preview of values, no value seen fewer than MIN_VALUE_COUNT times.
    expect(keysOf(r.data)).not.toContain("preview");
    for (const c of d!.columns) for (const v of c.commonValues) expect(v.count, `${c.name}=${v.value}`).toBeGreaterThanOrEqual(MIN_VALUE_COUNT);
  });

  it("lists the project's experiment and gives its validation results without any test score, once trained", async () => {
    const listed = await agent.call("list_experiments");
    expect(listed.data).toMatchObject({ total: 1, experiments: [{ id: penguins.experimentId, kind: "tabular", target: "species", metric: "accuracy" }] });
    const trained = await waitFor("the experiment to end", async () => {
      const e = await server.client.experiments.get.query({ id: penguins.experimentId });
      return e.status === "running" ? undefined : e;
    }, 300_000, 1000);
    expect(trained.status, trained.note ?? "").toBe("succeeded");

    const r = await agent.call("get_experiment", { experimentId: penguins.experimentId });
    expect(r.isError, r.text).toBe(false);
    expect(r.data).toMatchObject({
      id: penguins.experimentId,
      status: "succeeded",
      datasetId: penguins.datasetId,
      settings: { target: "species", metric: "accuracy", maxMinutes: 2 },
      validation: {
        partition: "validation",
        metric: "accuracy",
        bestModel: trained.results!.training!.bestModel,
        validationScore: trained.results!.training!.validationScore,
        validationRows: trained.results!.training!.validationRows,
      },
    });
    expect((r.data.validation as { models: unknown[] }).models.length).toBeGreaterThan(0);
    // The API's view holds the test receipts; the tool's answer holds none of their keys.
    expect(keysOf(trained)).toEqual(expect.arrayContaining(["candidate", "baseline", "comparison"]));
    const keys = keysOf(r.data);
    for (const k of TEST_KEYS) expect(keys, k).not.toContain(k);
    expect(keysOf(JSON.parse(r.text))).toEqual(keys);
  });

  it("tails a step's log within the line cap, and refuses more than the cap", async () => {
    const r = await agent.call("get_job_logs", { experimentId: penguins.experimentId, step: "train", maxLines: 3 });
    expect(r.isError, r.text).toBe(false);
    expect(r.data).toMatchObject({ step: "train", state: "succeeded", eof: true, truncated: true });
    expect((r.data.lines as string[]).length).toBe(3);
    const latest = await agent.call("get_job_logs", { experimentId: penguins.experimentId });
    expect(latest.data).toMatchObject({ step: "package" });
    const over = await agent.call("get_job_logs", { experimentId: penguins.experimentId, maxLines: MAX_LOG_LINES + 1 });
    expect(over.isError).toBe(true);
    expect(over.text).toMatch(/maxLines/);
  });

  it("compares experiments on validation only and lists registered models with their versions, read-only", async () => {
    const cmp = await agent.call("compare_experiments", { experimentIds: [penguins.experimentId, penguins.experimentId] });
    expect(cmp.isError, cmp.text).toBe(false);
    expect(cmp.data).toMatchObject({ comparable: true, experiments: [{ id: penguins.experimentId, bestModel: expect.any(String), validationScore: expect.any(Number) }] });
    const foreign = await otherAgent.call("compare_experiments", { experimentIds: [penguins.experimentId, "x"] });
    expect(foreign.isError).toBe(true);

    expect((await agent.call("list_models")).data).toEqual({ models: [] });
    const reg = await server.client.models.register.mutate({ experimentId: penguins.experimentId, newModelName: "Species" });
    const models = await agent.call("list_models");
    expect(models.data).toMatchObject({ models: [{ id: reg.model.id, name: "Species", revision: expect.any(Number), aliases: [], versions: [{ number: 1, status: "registered", experimentId: penguins.experimentId, primaryMetric: "accuracy", aliases: [] }] }] });
    for (const k of TEST_KEYS) expect(keysOf(models.data), k).not.toContain(k);
    expect((await otherAgent.call("list_models")).data).toEqual({ models: [] });
    expect(agent.stderr()).toContain('serving project "Penguins"');
    // No deployment yet: no monitor; a deployment of no one's is refused by name.
    expect((await agent.call("get_monitoring")).data).toEqual({ monitors: [] });
    expect((await agent.call("list_schedules")).data).toEqual({ schedules: [] });
    expect(await agent.call("get_monitoring", { deployment: "nowhere" })).toMatchObject({ isError: true, text: expect.stringMatching(/No deployment "nowhere" in project "Penguins"/) });
  });

  it("promotes a registered version through an agent token once the owner's policy allows it, with the decision in words; the same token cannot promote through the API", async () => {
    const created = await cliAsync(["token", "create", "promoter", "--scope", "agent"], { TRAINYARD_HOME: home.home });
    expect(created.status, created.stderr).toBe(0);
    const writer = await connectAgent(server.url, created.stdout.trim(), "Penguins");
    try {
      const [model] = (await writer.call("list_models")).data.models as { id: string; revision: number }[];
      const promote = { modelId: model!.id, version: 1, expectedRevision: model!.revision, reason: "the only trained version" };
      expect((await writer.call("promote_version", promote)).text).toMatch(/agents\.mayPromote.*is off/);
      // Around the tool, straight to the API with the same token: refused at the door, whatever the policy.
      const direct = await fetch(`${server.url}/api/trpc/models.promote`, {
        method: "POST",
        headers: { authorization: `Bearer ${created.stdout.trim()}`, "content-type": "application/json" },
        body: JSON.stringify({ json: { ...promote, alias: "selected", acceptRegression: true } }),
      });
      expect(direct.status).toBe(403);
      expect(await direct.json()).toMatchObject({ code: "agent_token" });
      await server.client.settings.updateAgents.mutate({ values: { mayPromote: true }, revision: (await server.client.settings.agents.query()).revision });
      const r = await writer.call("promote_version", promote);
      expect(r.isError, r.text).toBe(false);
      expect(r.data).toMatchObject({ modelId: model!.id, alias: "selected", version: 1, moved: true, verdict: "first", revision: model!.revision + 1 });
      for (const k of TEST_KEYS) expect(keysOf(r.data), k).not.toContain(k);
      const again = await writer.call("promote_version", { ...promote, expectedRevision: model!.revision });
      expect(again).toMatchObject({ isError: true, text: expect.stringMatching(/moved since you looked/) });
      expect((await server.client.models.list.query({ projectId: penguins.projectId }))[0]!.aliases).toEqual([expect.objectContaining({ name: "selected", version: 1 })]);
    } finally {
      await writer.client.close();
    }
  });
});
