/**
 * LoRA fine-tunes as registry versions, through the real server, worker, llm-lora and
 * evaluation-lm recipes on the tiny random GPT-2: two fine-tunes (same base, examples and
 * evaluation contract) registered as versions 1 and 2 (one from the CLI, one whose export
 * was gone from managed storage and is restored by hash), each recording its exact base
 * model, receipt and export; promotion behind the LoRA gate; a tabular version of the same
 * model is never comparable with them (and says why); rollback to the exact previous
 * version; a failed fine-tune is refused.
 */
import { createHash, randomUUID } from "node:crypto";
import { cpSync, readFileSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { allowedModelFolder, EXAMPLES, hasEnded, SMALL, uploadExamples, waitForFineTune } from "@/server/finetune/finetune-test-support";
import type { HoldoutCompareResult } from "@/server/holdouts/holdouts.schema";
import { upload, waitForProfile } from "@/server/datasets/test-support";
import { runCli } from "@/server/testing/cli-process";
import { realRecipesServerForBlock } from "@/server/testing/real-recipes-server";
import { REPO, waitFor } from "@/server/testing/server-harness";
import type { FineTuneView } from "@/server/finetune/finetune.schema";
import { refusal } from "./registry-test-support";
import { ONE_LIGHTGBM } from "@/server/testing/one-model";

const MODEL = "Math helper";
const sha256 = (file: string) => createHash("sha256").update(readFileSync(file)).digest("hex");

// Generous waits: a loaded CI machine runs these jobs several times slower than an idle one.
const WAIT_MS = 12 * 60_000;

describe("LoRA fine-tunes as model versions", { timeout: 1_500_000 }, () => {
  const { home, server } = realRecipesServerForBlock();
  let projectId: string;
  let modelId: string;
  /** Two fine-tunes of one base on one evaluation set (another learning rate), a failed one, and a tabular training. */
  const done: { a?: FineTuneView; b?: FineTuneView; failed?: FineTuneView; tabular?: string } = {};

  it("registers two fine-tunes as versions 1 and 2 with their base model, receipt and export, one from the CLI and one whose export is restored by hash", async () => {
    const { root, model } = await allowedModelFolder(server, home);
    // "Default": the project the CLI names when given no --project.
    projectId = (await server.client.projects.create.mutate({ name: "Default" })).id;
    const [examples, table] = await Promise.all([uploadExamples(server, projectId), upload(server, projectId, "penguins.csv", readFileSync(path.join(REPO, "tests/fixtures/tabular/penguins.csv")))]);
    expect((await waitForProfile(server, table.body.datasetId!)).status).toBe("ready");
    const damaged = path.join(root, "damaged");
    cpSync(model, damaged, { recursive: true });
    truncateSync(path.join(damaged, "model.safetensors"), 100);
    const fineTune = (base: string, learningRate: number) =>
      server.client.finetune.start.mutate({ opId: randomUUID(), projectId, datasetId: examples, settings: { base: { kind: "path", path: base }, ...SMALL, learningRate, maxSteps: 2, maxMinutes: 5 } });
    const [a, b, failed, tabular] = await Promise.all([
      fineTune(model, 0.05),
      fineTune(model, 0.02),
      fineTune(damaged, 0.05),
      server.client.experiments.start.mutate({
        opId: randomUUID(),
        projectId,
        datasetId: table.body.datasetId!,
        settings: { target: "species", task: "multiclass", metric: "accuracy", mode: "quick", maxMinutes: 2, hyperparameters: ONE_LIGHTGBM },
      }),
    ]);
    done.a = await waitForFineTune(server, a.experiment.id, "fine-tune a to end", hasEnded, WAIT_MS);
    done.b = await waitForFineTune(server, b.experiment.id, "fine-tune b to end", hasEnded, WAIT_MS);
    done.failed = await waitForFineTune(server, failed.experiment.id, "the damaged base to fail", hasEnded, WAIT_MS);
    for (const d of [done.a, done.b]) expect(d.experiment.status, d.experiment.reason ?? "").toBe("succeeded");
    expect(done.failed.experiment.status).toBe("failed");
    done.tabular = tabular.id;

    const cli = await runCli(server.url, ["models", "register", "--experiment", a.experiment.id, "--model", MODEL, "--json"]).done;
    expect(cli.code, cli.stderr).toBe(0);
    const one = JSON.parse(cli.stdout) as { id: string; created: boolean; version: { number: number; status: string } };
    expect(one).toMatchObject({ name: MODEL, created: true, version: { number: 1, experimentId: a.experiment.id, status: "registered" } });
    modelId = one.id;

    // Version 2's archive is gone from managed storage: registering restores it from the worker's export job by its hash.
    const archiveB = path.join(home.home, "artifacts", done.b.export!.sha256, "export.tar.gz");
    rmSync(archiveB);
    const two = await server.client.models.register.mutate({ experimentId: b.experiment.id, modelId });
    expect(two).toMatchObject({ created: true, version: { number: 2, status: "registered" }, exportNote: expect.stringContaining("restored from the worker by its hash") });
    expect(sha256(archiveB)).toBe(done.b.export!.sha256);
    expect((await server.client.models.register.mutate({ experimentId: b.experiment.id, modelId })).created).toBe(false);

    const shown = await server.client.models.show.query({ modelId });
    for (const [n, d] of [[1, done.a], [2, done.b]] as const) {
      const v = shown.versions.find((x) => x.number === n)!;
      const receipt = d.receipt!;
      expect(v).toMatchObject({
        exportSha256: d.export!.sha256,
        exportBytes: d.export!.bytes,
        modelSha256: receipt.adapterSha256,
        primaryMetric: "mean_nll_per_answer_token",
        metricLabel: "answer-token loss",
        direction: "lower_is_better",
        primaryValue: receipt.adapter.meanNll,
        baselineValue: receipt.base.meanNll,
        evaluationContractHash: receipt.contractSha256,
        identity: { recipe: "llm-lora" },
        evidence: { kind: "lora", base: { name: "tiny-gpt2", snapshotSha256: d.base!.snapshotSha256, dequantizedFrom: null }, receipt: { evalSetSha256: receipt.evalSetSha256 } },
      });
      expect(v.evidenceWords).toContain(`answer-token loss ${receipt.base.meanNll.toFixed(2)} → ${receipt.adapter.meanNll.toFixed(2)} vs its base`);
      expect(v.baseModel).toBe(`tiny-gpt2 (snapshot ${d.base!.snapshotSha256.slice(0, 12)})`);
      // Its exclusion evidence: the hash of every prompt it trained and was evaluated on (all distinct in this file).
      expect(v.exclusion).toEqual({ kind: "prompts", entries: d.checks!.counts.train + d.checks!.counts.eval });
      expect(sha256(path.join(home.home, "artifacts", v.exportSha256, "export.tar.gz"))).toBe(v.exportSha256);
    }
  });

  it("compares the two fine-tunes on a reserved holdout of examples, leaving out the prompts they trained on", async () => {
    // GSM8K problems none of them saw, and three training lines in other case (the same prompts).
    const trained = readFileSync(EXAMPLES, "utf8").split("\n").slice(0, 3).map((line) => JSON.stringify(Object.fromEntries(Object.entries(JSON.parse(line) as Record<string, string>).map(([k, v]) => [k, v.toUpperCase()]))));
    const file = path.join(home.scratch, "held-out.jsonl");
    writeFileSync(file, readFileSync(path.join(path.dirname(EXAMPLES), "gsm8k-chat.jsonl"), "utf8") + trained.join("\n") + "\n");
    const reserved = await runCli(server.url, ["holdouts", "create", "--project", "Default", "--data", file, "--json"]).done;
    expect(reserved.code, reserved.stderr).toBe(0);
    const compared = await runCli(server.url, ["holdouts", "compare", MODEL, "--versions", "1,2", "--json"]).done;
    expect(compared.code, compared.stderr).toBe(0);
    const r = JSON.parse(compared.stdout) as HoldoutCompareResult;
    expect(r).toMatchObject({ metric: "mean_nll_per_answer_token", direction: "lower_is_better", unit: "examples", excluded: { total: 3, byVersion: { "1": 3, "2": 3 } } });
    expect(r.results.map((x) => x.version)).toEqual([1, 2]);
    expect(r.difference.estimate).toBeCloseTo(r.results[1]!.value - r.results[0]!.value, 9);
    expect(r.difference.low).toBeLessThanOrEqual(r.difference.high);
    console.log(`fine-tunes on the holdout: ${r.rows} examples (${r.excluded.total} left out); ${r.results.map((x) => `v${x.version} ${x.value.toFixed(4)}`).join(", ")}; difference ${r.difference.estimate.toFixed(4)} [${r.difference.low.toFixed(4)}, ${r.difference.high.toFixed(4)}]`);

  });

  it("refuses to register a fine-tune that failed, changing nothing", async () => {
    const r = await refusal(server.client.models.register.mutate({ experimentId: done.failed!.experiment.id, modelId }));
    expect(r).toMatchObject({ code: "BAD_REQUEST", reason: "experiment_not_succeeded" });
    expect(r.message).toContain("failed");
    expect((await server.client.models.show.query({ modelId })).versions).toHaveLength(2);
  });

  it("promotes version 1 first, then finds version 2 comparable and gates it on the adapter's answer-token loss", async () => {
    const first = await server.client.models.promote.mutate({ modelId, version: 1, reason: "first adapter", expectedRevision: 1 });
    expect(first).toMatchObject({ model: { revision: 2, selected: { number: 1 } }, decision: { verdict: "first" } });
    const cmp = await server.client.models.compare.query({ modelId, a: 1, b: 2 });
    expect(cmp.comparability).toMatchObject({ comparable: true, reason: expect.stringContaining("same evaluation set, base model snapshot") });
    const [v1, v2] = [cmp.a, cmp.b];
    expect(cmp.improvement).toBeCloseTo(v1.primaryValue - v2.primaryValue, 12);
    expect(cmp.identity.find((r) => r.key === "baseSnapshotSha256")).toMatchObject({ same: true, a: done.a!.base!.snapshotSha256 });
    expect(cmp.data.find((r) => r.key === "evalSetSha256")!.same).toBe(true);
    expect(cmp.settings.find((r) => r.key === "learningRate")).toMatchObject({ same: false, a: 0.05, b: 0.02 });

    const preview = await server.client.models.promotionPreview.query({ modelId, version: 2 });
    const better = v1.primaryValue - v2.primaryValue >= 0.001;
    expect(preview.decision).toMatchObject(better ? { verdict: "better", metric: "mean_nll_per_answer_token" } : { verdict: "needs_acknowledgement", why: "not_better" });
    const promoted = await server.client.models.promote.mutate({ modelId, version: 2, reason: "lower learning rate", acceptRegression: !better, expectedRevision: 2 });
    expect(promoted).toMatchObject({ model: { revision: 3, selected: { number: 2 } }, event: { from: { number: 1 }, to: { number: 2 }, acknowledgedRegression: !better } });
  });

  it("never compares a LoRA version with a tabular one: the comparison says why, and promoting it needs an acknowledgement", async () => {
    const tab = await waitFor("the tabular training to end", async () => {
      const d = await server.client.experiments.get.query({ id: done.tabular! });
      return d.status !== "running" ? d : undefined;
    }, WAIT_MS, 1000);
    expect(tab.status, tab.note ?? "").toBe("succeeded");
    const reg = await server.client.models.register.mutate({ experimentId: done.tabular!, modelId });
    expect(reg.version).toMatchObject({ number: 3, evidence: { kind: "tabular" }, baseModel: null, exclusion: { kind: "rows" } });
    // Every penguins row went to train, validation or test (none is a duplicate or lacks the target).
    expect(reg.version.exclusion!.entries).toBe(344);
    const cmp = await server.client.models.compare.query({ modelId, a: 2, b: 3 });
    expect(cmp).toMatchObject({ improvement: null, comparability: { comparable: false, differences: [{ field: "kind", a: "lora", b: "tabular" }] } });
    expect(cmp.comparability.reason).toContain("one is a LoRA fine-tune of a language model scored by mean_nll_per_answer_token, the other a tabular model scored by accuracy");
    const refused = await refusal(server.client.models.promote.mutate({ modelId, version: 3, reason: "a table model instead", expectedRevision: 3 }));
    expect(refused).toMatchObject({ code: "CONFLICT", reason: "needs_acknowledgement", details: { decision: { why: "not_comparable" } } });
    const unchanged = await server.client.models.show.query({ modelId });
    expect([unchanged.model.revision, unchanged.model.selected?.number, unchanged.history.length]).toEqual([3, 2, 2]);
    // Nor on a holdout.
    const mixed = await runCli(server.url, ["holdouts", "compare", MODEL, "--versions", "2,3", "--json"]).done;
    expect(mixed.code).not.toBe(0);
    expect(mixed.stderr).toContain("not all of one kind");
  });

  it("rolls back to the exact previously selected LoRA version from the CLI", async () => {
    const r = await runCli(server.url, ["models", "rollback", MODEL, "--reason", "version 2 answers worse", "--json"]).done;
    expect(r.code, r.stderr).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ revision: 4, selected: { number: 1, evidence: { kind: "lora" } }, event: { kind: "rollback", from: { number: 2 }, to: { number: 1 } } });
    const history = await server.client.models.history.query({ modelId });
    expect(history.map((e) => [e.kind, e.to.number])).toEqual([["rollback", 1], ["promote", 2], ["promote", 1]]);
  });
});
