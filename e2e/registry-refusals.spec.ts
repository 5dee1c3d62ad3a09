/**
 * What the Models view refuses, on desktop and phone, with two real quick trainings on
 * penguins scored on different metrics: the promotion sheet says why the pair is not
 * comparable and asks for that acknowledgement; a rollback sheet left open while the
 * model moved elsewhere gets the CONFLICT and changes nothing; a version whose export is
 * gone (managed copy and the worker's) is refused as "export missing". Then retention:
 * the export budget lowered in Settings, the Models view proposes the oldest removable
 * version to fit it, and the confirmation sheet removes it. axe on each page and with
 * each sheet open; nothing scrolls sideways at 390 px.
 */
import { createHash, randomUUID } from "node:crypto";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { ONE_LIGHTGBM } from "../server/testing/one-model";
import { expectNoSeriousAxeViolations } from "./axe";
import { createProject, expectLaidOutAtScreenWidth, expectNoHorizontalOverflow, trainWithRecommendedChoices, trpcMutation, trpcQuery } from "./steps";

const PENGUINS = path.resolve("tests/fixtures/tabular/penguins.csv");
const MODEL = "Penguin species";
const HOME = process.env.TRAINYARD_E2E_HOME!;
test.use({ actionTimeout: 60_000 });

type Experiment = { id: string; projectId: string; datasetId: string; status: string; settings: Record<string, unknown> };
type Shown = { model: { id: string; revision: number }; versions: { number: number; exportSha256: string }[] };

async function phoneFits(page: Page, phone: boolean) {
  if (!phone) return;
  await expectNoHorizontalOverflow(page);
  await expectLaidOutAtScreenWidth(page, 390);
}

function filesNamed(dir: string, name: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? filesNamed(full, name) : e.isFile() && e.name === name ? [full] : [];
  });
}

/** Deletes every copy of the archive with `sha256`: the managed one and the worker's package output. */
function loseExport(sha256: string): number {
  const copies = filesNamed(HOME, "export.tar.gz").filter((f) => createHash("sha256").update(readFileSync(f)).digest("hex") === sha256);
  for (const f of copies) rmSync(f);
  return copies.length;
}

async function saveExportBudget(page: Page, mib: string) {
  await page.goto("/settings");
  const section = page.getByRole("region", { name: "Model registry" });
  const budget = section.getByLabel("Registered exports per project (MiB)");
  await expect(budget).toBeEnabled();
  await budget.fill(mib);
  await section.getByRole("button", { name: "Save registry settings" }).click();
  await expect(section.getByRole("status")).toContainText("Saved.");
}

test("the promotion sheet refuses an incomparable pair without the acknowledgement, a stale rollback and a missing export; retention fits the budget", async ({ page }, testInfo) => {
  test.setTimeout(20 * 60_000);
  const request = page.request;
  const phone = testInfo.project.name === "phone";
  await createProject(page, `Refusals ${testInfo.project.name} ${Date.now()}`);

  // Two trainings at once: the wizard's, and the same data scored on the other metric.
  const firstUrl = await trainWithRecommendedChoices(page, PENGUINS, "species", 2);
  const a = await trpcQuery<Experiment>(request, "experiments.get", { id: firstUrl.split("/").pop() });
  const otherMetric = a.settings.metric === "balanced_accuracy" ? "accuracy" : "balanced_accuracy";
  const b = await trpcMutation<{ id: string }>(request, "experiments.start", {
    opId: randomUUID(),
    projectId: a.projectId,
    datasetId: a.datasetId,
    settings: { ...a.settings, metric: otherMetric, hyperparameters: ONE_LIGHTGBM },
  });
  for (const id of [a.id, b.id]) {
    await expect.poll(async () => (await trpcQuery<Experiment>(request, "experiments.get", { id })).status, { timeout: 10 * 60_000, intervals: [2000] }).toBe("succeeded");
  }
  const reg = await trpcMutation<{ model: { id: string } }>(request, "models.register", { experimentId: a.id, newModelName: MODEL });
  const modelId = reg.model.id;
  await trpcMutation(request, "models.register", { experimentId: b.id, modelId });
  await trpcMutation(request, "models.promote", { modelId, version: 1, reason: "first release", expectedRevision: 1 });

  await page.goto(`/projects/${a.projectId}/ml/models`);
  const card = page.getByRole("region", { name: MODEL });
  await expect(card.getByTestId("model-selected")).toContainText("In use: version 1");

  // Not comparable: the sheet says which contract field differs and asks for that acknowledgement.
  await card.getByRole("button", { name: "Promote version 2" }).click();
  let sheet = page.getByRole("dialog", { name: "Promote version 2?" });
  await expect(sheet.getByTestId("promote-decision")).toHaveAttribute("data-verdict", "needs_acknowledgement");
  await expect(sheet.getByTestId("promote-decision")).toHaveText("Not comparable: the metric differs.");
  await expect(sheet.getByRole("listitem")).toHaveText(`metric: ${String(a.settings.metric)} (in use) vs ${otherMetric} (this version)`);
  const ack = sheet.getByLabel("I accept promoting version 2 although it cannot be compared with version 1: the metric differs.");
  await sheet.getByLabel(/^Reason/).fill("we report the other metric now");
  const go = sheet.getByRole("button", { name: "Promote version 2" });
  await expect(go).toBeDisabled();
  await expectNoSeriousAxeViolations(page);
  await phoneFits(page, phone);
  await ack.check();
  await go.click();
  await expect(sheet).toHaveCount(0);
  await expect(card.getByTestId("model-selected")).toContainText("In use: version 2");
  await expect(card.getByTestId("timeline-event").first()).toContainText("Promoted with an acknowledgement");

  // A rollback sheet left open while someone else rolled back: CONFLICT, nothing changes.
  await card.getByRole("button", { name: "Roll back to version 1" }).first().click();
  sheet = page.getByRole("dialog", { name: "Roll back to version 1?" });
  await expect(sheet.getByTestId("rollback-change")).toContainText("In use nowversion 2");
  await sheet.getByLabel(/^Reason/).fill("version 2 misbehaves");
  await trpcMutation(request, "models.rollback", { modelId, reason: "from another tab" });
  await sheet.getByRole("button", { name: "Roll back to version 1" }).click();
  await expect(sheet.getByRole("alert")).toContainText("someone moved it since you looked");
  await expect(sheet.getByRole("alert")).toContainText("Nothing was changed");
  await expect(sheet.getByRole("button", { name: "Roll back to version 1" })).toBeDisabled();
  await expectNoSeriousAxeViolations(page);
  await phoneFits(page, phone);
  await sheet.getByRole("button", { name: "Not now" }).click();
  await expect(card.getByTestId("timeline-event")).toHaveCount(3);
  await expect(card.getByTestId("timeline-event").first()).toContainText("Reason: from another tab");

  // Version 2's export gone everywhere: promoting it is refused as "export missing".
  const shown = await trpcQuery<Shown>(request, "models.show", { modelId });
  expect(loseExport(shown.versions.find((v) => v.number === 2)!.exportSha256)).toBeGreaterThanOrEqual(2);
  await card.getByRole("button", { name: "Promote version 2" }).click();
  sheet = page.getByRole("dialog", { name: "Promote version 2?" });
  await sheet.getByLabel(/^Reason/).fill("back to 2");
  await sheet.getByLabel(/^I accept promoting version 2/).check();
  await sheet.getByRole("button", { name: "Promote version 2" }).click();
  await expect(sheet.getByTestId("promote-conflict")).toContainText("export is missing");
  await expect(sheet.getByTestId("promote-decision")).toHaveAttribute("data-verdict", "export_missing");
  await expect(sheet.getByRole("button", { name: "Promote version 2" })).toHaveCount(0);
  await expectNoSeriousAxeViolations(page);
  await sheet.getByRole("button", { name: "Not now" }).click();
  const row2 = card.locator('[data-testid="version-row"][data-version="2"]');
  await expect(row2.getByTestId("version-status")).toHaveText("export missing");
  await expect(card.locator('[data-testid="version-actions"][data-version="2"]').getByRole("button", { name: "Promote version 2" })).toBeDisabled();
  await expect(card.getByTestId("model-selected")).toContainText("In use: version 1");

  // Retention: a budget below what is registered; the view proposes the oldest removable version.
  try {
    await saveExportBudget(page, "0.06");
    await expectNoSeriousAxeViolations(page);
    await phoneFits(page, phone);
    await page.goto(`/projects/${a.projectId}/ml/models`);
    const retention = page.getByRole("region", { name: "Storage and retention" });
    await expect(retention.getByTestId("retention-over")).toContainText("Over the budget");
    await expect(retention.getByRole("checkbox", { name: `version 2 of “${MODEL}”`, exact: false })).toBeChecked();
    // The row's own Remove says the same in its sheet; the retention sheet is the one confirmed here.
    await card.getByRole("button", { name: "Remove version 2" }).click();
    sheet = page.getByRole("dialog", { name: `Remove version 2 of “${MODEL}”?` });
    await expect(sheet.getByTestId("remove-change")).toContainText("can no longer be promoted or rolled back to");
    await sheet.getByRole("button", { name: "Not now" }).click();
    await retention.getByRole("button", { name: /^Review removing 1 version\(s\)/ }).click();
    sheet = page.getByRole("dialog", { name: `Remove version 2 of “${MODEL}”?` });
    await expect(sheet.getByTestId("remove-list")).toHaveText(`version 2 of “${MODEL}”`);
    await expect(sheet.getByTestId("remove-change")).toContainText("history that names it stays");
    await sheet.getByLabel(/^Reason/).fill("over the budget");
    await expectNoSeriousAxeViolations(page);
    await phoneFits(page, phone);
    await sheet.getByRole("button", { name: "Remove this version" }).click();
    await expect(sheet).toHaveCount(0);
    await expect(row2.getByTestId("version-status")).toHaveText("removed");
    await expect(retention.getByTestId("retention-over")).toHaveCount(0);
    await expect(card.getByTestId("timeline-event")).toHaveCount(3);
    await expectNoSeriousAxeViolations(page);
    await phoneFits(page, phone);
  } finally {
    // One server serves every spec: the next one registers within the default budget.
    await saveExportBudget(page, "2048");
  }
});
