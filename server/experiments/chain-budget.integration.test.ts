/**
 * A budget that runs out during training, through the real server, worker and recipes on
 * penguins: the trained model is still evaluated and exported (scores, a verified export),
 * and the experiment says what happened. The same run checks that the download, the file
 * the CLI saved and the model card's commands all use one name.
 */
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdirSync, readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "@/server/testing/cli-process";
import { REPO } from "@/server/testing/server-harness";
import { realRecipesServerForBlock } from "@/server/testing/real-recipes-server";

const PENGUINS = path.join(REPO, "tests/fixtures/tabular/penguins.csv");

describe("a budget shorter than the training", { timeout: 600_000 }, () => {
  const { home, server } = realRecipesServerForBlock();

  it("keeps the trained model: scores, a verified export, and a note on the budget", async () => {
    const out = path.join(home.scratch, "out");
    // 6 s: preparing the data and training (its time limit is 30 s at least) cannot fit in it,
    // however fast the machine.
    const run = await runCli(server.url, ["train", "--data", PENGUINS, "--target", "species", "--max-minutes", "0.1", "--out", out, "--json"]).done;
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout);
    expect(result).toMatchObject({ status: "succeeded", betterThanBaseline: true });
    expect(result.candidate).toBeGreaterThan(0.85);
    const exp = await server.client.experiments.get.query({ id: result.experimentId });
    const train = exp.steps.find((s) => s.step === "train")!;
    expect(train.state).toBe("succeeded");
    expect(exp.results!.budgetNote).toMatch(/^Training (used the whole|finished within the) 6 second budget; evaluation and export ran .* so the trained model was kept\.$/);
    expect(new Date(exp.endedAt!).getTime() - new Date(exp.createdAt).getTime()).toBeGreaterThan(6_000);

    // One name: the download's, the saved file's, the archive folder's and the model card's.
    const { fileName, folder, loadingCommands } = exp.results!.export;
    expect(fileName).toBe(`${folder}.tar.gz`);
    expect(path.basename(result.exportPath)).toBe(fileName);
    const res = await fetch(`${server.url}/api/experiments/${exp.id}/export`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toContain(`filename="${fileName}"`);
    const downloaded = Buffer.from(await res.arrayBuffer());
    const sha = createHash("sha256").update(downloaded).digest("hex");
    expect(sha).toBe(exp.exportSha256);
    expect(createHash("sha256").update(readFileSync(result.exportPath)).digest("hex")).toBe(sha);
    const unpacked = path.join(home.scratch, "unpacked");
    mkdirSync(unpacked);
    expect(spawnSync("tar", ["xzf", result.exportPath, "-C", unpacked]).status).toBe(0);
    expect(readdirSync(unpacked)).toEqual([folder]);
    const card = readFileSync(path.join(unpacked, folder, "MODEL_CARD.md"), "utf8");
    const block = card.split("## Loading")[1]!.split("```")[1]!.trim().split("\n");
    expect(block).toEqual(loadingCommands);
    expect(loadingCommands.slice(0, 4)).toEqual([`sha256sum ${fileName}`, `tar xzf ${fileName}`, `cd ${folder}`, "python verify.py ."]);
    const verified = spawnSync("python3", ["verify.py", "."], { cwd: path.join(unpacked, folder), encoding: "utf8" });
    expect(verified.status, verified.stdout + verified.stderr).toBe(0);
    expect(JSON.parse(verified.stdout)).toMatchObject({ verified: true });
  });
});
