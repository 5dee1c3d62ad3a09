/**
 * The CLI as a person and a script meet it, through the real server, worker and
 * recipes: a mistyped --target is refused from the file's header before anything is
 * uploaded (CSV, gzip CSV, Parquet), --json failures are one JSON error object on
 * stdout, and the text output of a real training rounds the scores and ends with the
 * export's path.
 */
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { runCli } from "@/server/testing/cli-process";
import { REPO, TEST_ENVS_DIR } from "@/server/testing/server-harness";
import { realRecipesServerForBlock } from "@/server/testing/real-recipes-server";

const PENGUINS = path.join(REPO, "tests/fixtures/tabular/penguins.csv");
const COLUMNS = "species, island, bill_length_mm, bill_depth_mm, flipper_length_mm, body_mass_g, sex, year";

/** The data recipe's interpreter (pandas + pyarrow), as the upload tests use it to write Parquet. */
function dataPython(): string {
  for (const id of readdirSync(TEST_ENVS_DIR)) {
    const ready = path.join(TEST_ENVS_DIR, id, "ready.json");
    if (existsSync(ready) && (JSON.parse(readFileSync(ready, "utf8")) as { recipe: string }).recipe === "data") {
      return path.join(TEST_ENVS_DIR, id, "venv", "bin", "python");
    }
  }
  throw new Error(`no data recipe environment in ${TEST_ENVS_DIR} (pytest builds it)`);
}

interface JsonError {
  error: { message: string; code: string };
}

describe("the trainyard CLI against the real server", { timeout: 600_000 }, () => {
  const { home, server } = realRecipesServerForBlock();

  it("refuses a --target that is not in the file's header before uploading, listing the columns (CSV, gzip CSV, Parquet)", async () => {
    const gz = path.join(home.scratch, "penguins.csv.gz");
    writeFileSync(gz, gzipSync(readFileSync(PENGUINS)));
    const parquet = path.join(home.scratch, "penguins.parquet");
    execFileSync(dataPython(), ["-c", `import pandas as pd; pd.read_csv(${JSON.stringify(PENGUINS)}).to_parquet(${JSON.stringify(parquet)})`]);
    for (const file of [PENGUINS, gz, parquet]) {
      const { code, stdout, stderr } = await runCli(server.url, ["train", "--data", file, "--target", "Species", "--json"]).done;
      expect(code, `${file}: ${stderr}`).toBe(1);
      expect(JSON.parse(stdout) as JsonError).toEqual({
        error: {
          code: "no_such_column",
          message: `There is no column "Species" in the file (columns: ${COLUMNS}). Did you mean "species"? Names are case-sensitive.`,
        },
      });
      expect(stderr).toContain(`There is no column "Species" in the file (columns: ${COLUMNS}).`);
    }
    const typo = await runCli(server.url, ["train", "--data", PENGUINS, "--target", "specie", "--json"]).done;
    expect((JSON.parse(typo.stdout) as JsonError).error.message).toMatch(/Did you mean "species"\?$/);
    // A picture is refused as binary, as the upload would refuse it, not as a table whose one column is "PNG".
    const picture = path.join(home.scratch, "picture.png");
    writeFileSync(picture, Buffer.from("89504e470d0a1a0a0000000d4948445200000001", "hex"));
    const png = await runCli(server.url, ["train", "--data", picture, "--target", "species", "--json"]).done;
    expect(png.code).toBe(1);
    expect((JSON.parse(png.stdout) as JsonError).error).toMatchObject({ code: "not_text", message: expect.stringContaining("picture.png contains a NUL byte at offset 8: it is binary data") });
    // Nothing reached the server: no project was created for the upload, no dataset stored.
    expect(await server.client.projects.list.query({ includeArchived: true })).toEqual([]);
  });

  it("prints a JSON error object on stdout for --json failures (unknown experiment, unknown project, bad usage)", async () => {
    const shown = await runCli(server.url, ["experiments", "show", "no-such-experiment", "--json"]).done;
    expect(shown.code).toBe(1);
    const err = JSON.parse(shown.stdout) as JsonError;
    expect(err.error.code).toBe("not_found");
    expect(err.error.message.length).toBeGreaterThan(0);

    const listed = await runCli(server.url, ["experiments", "list", "--project", "Nope", "--json"]).done;
    expect(listed.code).toBe(1);
    expect(JSON.parse(listed.stdout) as JsonError).toEqual({ error: { code: "not_found", message: 'No project named "Nope" (have: none).' } });

    const usage = await runCli(server.url, ["train", "--data", PENGUINS, "--json"]).done;
    expect(usage.code).toBe(2);
    expect((JSON.parse(usage.stdout) as JsonError).error).toMatchObject({ code: "usage", message: expect.stringContaining("Usage: trainyard train") });

    // --models names a family, and is for a quick training only: refused before any upload.
    const unknown = await runCli(server.url, ["train", "--data", PENGUINS, "--target", "species", "--models", "GBM,xgboost", "--json"]).done;
    expect(unknown.code).toBe(2);
    expect((JSON.parse(unknown.stdout) as JsonError).error.message).toMatch(/^--models: "XGBOOST" is not a model family\. Choose from GBM \(LightGBM\), CAT/);
    const searched = await runCli(server.url, ["train", "--data", PENGUINS, "--target", "species", "--mode", "improve", "--models", "GBM", "--json"]).done;
    expect(searched.code).toBe(2);
    expect((JSON.parse(searched.stdout) as JsonError).error.message).toContain("--models is for --mode quick");
    // --parallel-trials: a whole number up to the limit, for a search only.
    for (const [args, words] of [
      [["--mode", "improve", "--parallel-trials", "9"], '--parallel-trials is a whole number from 1 to 8 (got "9").'],
      [["--mode", "improve", "--parallel-trials", "1.5"], '--parallel-trials is a whole number from 1 to 8 (got "1.5").'],
      [["--mode", "improve", "--parallel-trials", "0"], '--parallel-trials needs a positive number (got "0").'],
      [["--parallel-trials", "2"], "--parallel-trials is for --mode improve: a quick run is one experiment."],
    ] as const) {
      const refused = await runCli(server.url, ["train", "--data", PENGUINS, "--target", "species", ...args, "--json"]).done;
      expect(refused.code).toBe(2);
      expect((JSON.parse(refused.stdout) as JsonError).error.message).toBe(words);
    }
    expect(await server.client.projects.list.query({ includeArchived: true })).toEqual([]);
  });

  it("trains in text mode (--models GBM: one LightGBM): scores rounded for people, the export's path on the last line", async () => {
    const out = path.join(home.scratch, "out");
    const { code, stdout, stderr } = await runCli(server.url, ["train", "--data", PENGUINS, "--target", "species", "--max-minutes", "4", "--models", "gbm", "--out", out]).done;
    expect(code, stderr).toBe(0);
    const lines = stdout.trim().split("\n");
    expect(lines[0]).toMatch(/^Experiment \S+: succeeded in \d+ s/);
    const scores = /^accuracy (\d+\.\d) % \(baseline (\d+\.\d) %\): better than the baseline$/.exec(lines[1] ?? "");
    expect(scores, stdout).not.toBeNull();
    const exportLine = /^Export: (\/.+\.tar\.gz)$/.exec(lines.at(-1) ?? "");
    expect(exportLine, stdout).not.toBeNull();
    const file = exportLine![1]!;
    expect(path.dirname(file)).toBe(out);

    const id = /^Experiment (\S+):/.exec(lines[0]!)![1]!;
    const exp = await server.client.experiments.get.query({ id });
    expect(createHash("sha256").update(readFileSync(file)).digest("hex")).toBe(exp.exportSha256);
    // The rounded numbers are the server's, rounded.
    expect(scores![1]).toBe((exp.candidate! * 100).toFixed(1));
    expect(scores![2]).toBe((exp.baseline! * 100).toFixed(1));
    // Only the family asked for was fitted (AutoGluon names each model after its family).
    expect(exp.settings.hyperparameters).toEqual({ GBM: {} });
    expect(exp.results!.leaderboard!.models.map((m) => m.model)).toEqual(["LightGBM"]);

    const listed = await runCli(server.url, ["experiments", "list"]).done;
    expect(listed.stdout).toContain(`${id}  succeeded  accuracy ${scores![1]} % (baseline ${scores![2]} %)`);
    const shown = await runCli(server.url, ["experiments", "show", id, "--json"]).done;
    expect(JSON.parse(shown.stdout)).toMatchObject({ experimentId: id, exportSha256: exp.exportSha256, exportVerified: true });
  });
});
