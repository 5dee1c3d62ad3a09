/**
 * Deleting a reserved holdout (the owner's undo), through the CLI against the real server,
 * worker and recipes: refused while an experiment that keeps its rows out still runs;
 * allowed once it ended; its rows then go back to training (a run on the same bytes keeps
 * nothing out and succeeds); its file stays while a dataset holds the same bytes and leaves
 * This computer's store when nothing else does; what remains (the other holdout, the
 * datasets) goes on working.
 */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "@/server/testing/cli-process";
import { realRecipesServerForBlock } from "@/server/testing/real-recipes-server";
import { REPO, waitFor } from "@/server/testing/server-harness";

const PENGUINS = path.join(REPO, "tests/fixtures/tabular/penguins.csv");

describe("deleting a reserved holdout", { timeout: 600_000 }, () => {
  const { home, server } = realRecipesServerForBlock();
  const cli = async (args: string[]) => {
    const r = await runCli(server.url, args).done;
    return { ...r, json: <T = Record<string, unknown>>() => JSON.parse(r.stdout) as T };
  };
  /** Files of the test named by this SHA-256 (This computer's store keeps a blob under its hash). */
  const storedFiles = (sha: string) => execFileSync("find", [home.root, "-path", `*/store/*/${sha}`, "-type", "f"], { encoding: "utf8" }).trim().split("\n").filter(Boolean);
  const reserve = async (data: string, name: string) => {
    const r = await cli(["holdouts", "create", "--project", "Default", "--data", data, "--name", name, "--json"]);
    expect(r.code, r.stderr + r.stdout).toBe(0);
    return r.json<{ id: string; sha256: string }>();
  };

  it("is refused while a run keeps its rows out, then gives the rows back, removes its file when nothing else holds it, and leaves the rest working", async () => {
    const [header, ...rows] = readFileSync(PENGUINS, "utf8").trim().split("\n");
    const file = (name: string, lines: string[]) => {
      const p = path.join(home.scratch, name);
      writeFileSync(p, [header, ...lines].join("\n") + "\n");
      return p;
    };
    const held = file("held.csv", rows.filter((_, i) => i % 4 === 0)); // 86 rows, also a dataset below
    const other = file("other.csv", rows.filter((_, i) => i % 4 === 1)); // 86 rows of a second holdout
    const project = await server.client.projects.create.mutate({ name: "Default" });
    const h1 = await reserve(held, "held");
    const h2 = await reserve(other, "other");
    expect(storedFiles(h2.sha256)).toHaveLength(1);

    // A run started now keeps both holdouts' rows out: while it runs, neither can be deleted.
    const running = runCli(server.url, ["train", "--data", PENGUINS, "--target", "species", "--models", "GBM", "--max-minutes", "3", "--json"]);
    const exp = await waitFor("the run to start", async () => (await server.client.experiments.list.query({ projectId: project.id }))[0], 120_000);
    const refused = await cli(["holdouts", "delete", h2.id, "--json"]);
    expect(refused.code).toBe(1);
    expect(refused.json<{ error: { message: string } }>().error.message).toMatch(new RegExp(`^The holdout "other" cannot be deleted now: experiment "${exp.name}" is (queued|running) and keeps these rows out`));
    const trained = JSON.parse((await running.done).stdout) as { status: string; split: { heldOutRows: number } };
    expect(trained).toMatchObject({ status: "succeeded", split: { heldOutRows: 172 } });

    // A dataset of the first holdout's bytes: deleting the holdout leaves the file to it.
    const up = await cli(["dataset", "upload", held, "--project", "Default"]);
    expect(up.code, up.stderr).toBe(0);
    const first = await cli(["holdouts", "delete", h1.id, "--json"]);
    expect(first.code, first.stderr).toBe(0);
    expect(first.json()).toMatchObject({ holdoutId: h1.id, name: "held", rows: 86, removesFile: false, blockers: [], copiesLeft: [] });
    expect(storedFiles(h1.sha256)).toHaveLength(1);
    // Its rows are given back: a run on those very rows keeps nothing out of them (the other holdout shares none).
    const onHeld = await cli(["train", "--data", held, "--target", "species", "--models", "GBM", "--max-minutes", "3", "--json"]);
    expect(onHeld.code, onHeld.stderr).toBe(0);
    expect(onHeld.json()).toMatchObject({ status: "succeeded", split: { heldOutRows: 0 } });

    // The second holdout's bytes are nobody else's: the file leaves the store.
    const second = await cli(["holdouts", "delete", h2.id, "--json"]);
    expect(second.json()).toMatchObject({ holdoutId: h2.id, removesFile: true, copiesLeft: [] });
    expect(storedFiles(h2.sha256)).toEqual([]);
    expect((await cli(["holdouts", "list", "--project", "Default", "--json"])).json()).toEqual([]);
    const gone = await cli(["holdouts", "delete", h2.id, "--json"]);
    expect(gone.code).toBe(1);
    expect(gone.json<{ error: { code: string } }>().error.code).toBe("not_found");

    // What remains works: the dataset of the first holdout's bytes is read, and the same file can be reserved again.
    const dataset = (await server.client.datasets.list.query({ projectId: project.id })).find((d) => d.snapshotSha256 === h1.sha256)!;
    expect((await server.client.datasets.preview.query({ id: dataset.id })).rows.length).toBeGreaterThan(0);
    const again = await cli(["holdouts", "create", "--project", "Default", "--data", other, "--json"]);
    expect(again.code, again.stderr).toBe(0);
    expect(again.json()).toMatchObject({ sha256: h2.sha256, rows: 86 });
    expect(again.json()).not.toHaveProperty("reused");
  });
});
