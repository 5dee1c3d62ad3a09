/**
 * The default holdout of a time-ordered task, through the CLI against the real server,
 * worker and data recipe: a dataset's newest rows by date are reserved as the project's
 * holdout (ties at the cut together, the same rows again answer the same holdout), bad
 * asks are refused in words, and a time-split experiment started afterwards trains on none
 * of them — it keeps exactly the holdout's rows out, all older than its first date.
 */
import { randomUUID } from "node:crypto";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "@/server/testing/cli-process";
import { ONE_LIGHTGBM } from "@/server/testing/one-model";
import { realRecipesServerForBlock } from "@/server/testing/real-recipes-server";
import { REPO, waitFor } from "@/server/testing/server-harness";

const WEATHER = path.join(REPO, "tests/fixtures/tabular/seattle_weather.csv");

describe("reserving a dataset's newest rows as the holdout", { timeout: 600_000 }, () => {
  const { server } = realRecipesServerForBlock();
  const cli = async (args: string[]) => {
    const r = await runCli(server.url, args).done;
    return { ...r, json: <T = Record<string, unknown>>() => JSON.parse(r.stdout) as T };
  };

  it("holds out the newest tenth by date, refuses what cannot make one, and a later time split trains only on older rows", async () => {
    const project = await server.client.projects.create.mutate({ name: "Default" });
    const up = await cli(["dataset", "upload", WEATHER, "--project", "Default"]);
    expect(up.code, up.stderr).toBe(0);
    const dataset = await waitFor("the profile", async () => (await server.client.datasets.list.query({ projectId: project.id })).find((d) => d.status === "ready"), 120_000);
    const create = (...extra: string[]) => cli(["holdouts", "create", "--project", "Default", "--from-dataset", dataset.name, "--time-column", "date", ...extra, "--json"]);

    const made = await create("--newest-percent", "10");
    expect(made.code, made.stderr + made.stdout).toBe(0);
    const h = made.json<{ id: string; name: string; rows: number; columns: string[] }>();
    expect(h).toMatchObject({ rows: 147, name: `${dataset.name} — newest 10% (from date 2015-08-07T00:00:00)`, columns: ["date", "precipitation", "temp_max", "temp_min", "wind", "weather"] });
    // The same rows again: the same holdout.
    expect((await create()).json()).toMatchObject({ id: h.id, reused: true });

    const notDates = await cli(["holdouts", "create", "--project", "Default", "--from-dataset", dataset.name, "--time-column", "weather", "--json"]);
    expect(notDates.code).toBe(1);
    expect(notDates.json<{ error: { message: string } }>().error.message).toContain("does not hold dates");
    const tooMuch = await create("--newest-percent", "80");
    expect(tooMuch.code).toBe(2);
    expect(tooMuch.stderr).toContain("--newest-percent takes a number above 0 and at most 50 (got 80)");
    const both = await create("--data", WEATHER);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain("Give --data FILE or --from-dataset DATASET, not both.");
    const unknown = await cli(["holdouts", "create", "--project", "Default", "--from-dataset", "no-such-data", "--time-column", "date", "--json"]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr + unknown.stdout).toContain(`has no dataset "no-such-data"`);

    // A time-split run on the whole dataset keeps exactly the holdout's rows out.
    const exp = await server.client.experiments.start.mutate({
      opId: randomUUID(),
      projectId: project.id,
      datasetId: dataset.id,
      settings: { target: "weather", task: "multiclass", metric: "accuracy", mode: "quick", maxMinutes: 2, hyperparameters: ONE_LIGHTGBM, split: { strategy: "time", column: "date" } },
    });
    const done = await waitFor("the training to end", async () => {
      const d = await server.client.experiments.get.query({ id: exp.id });
      return d.status !== "running" ? d : undefined;
    }, 400_000, 1000);
    expect(done.status, done.note ?? "").toBe("succeeded");
    // 147: the rows at or after the holdout's first date, which are the holdout's own rows.
    expect(done.heldOut).toEqual({ holdouts: 1, rows: 147 });
  });
});
