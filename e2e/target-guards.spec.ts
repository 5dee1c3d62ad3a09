/**
 * Hopeless setups are stopped in the wizard before Start, with the reason (issue 12,
 * "Guarded"): a one-column file has nothing to learn from; a per-row tag cannot be a
 * class target; a counting penguin_id is listed apart as an ID and only warned about.
 * Real server, real data recipe (profile and checks); nothing trains.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { expectNoSeriousAxeViolations } from "./axe";
import { createProject } from "./steps";

const TABULAR = path.resolve("tests/fixtures/tabular");
const stepHeading = (page: Page, n: number) => page.getByRole("heading", { name: new RegExp(`^Step ${n} of 6`) });

/** penguins plus penguin_id (1, 2, 3, …) and tag (P-000, P-001, …): both differ in every row. */
function penguinsWithIds(file: string) {
  const lines = readFileSync(path.join(TABULAR, "penguins.csv"), "utf8").trimEnd().split("\n");
  const rows = lines.slice(1).map((l, i) => `${l},${i + 1},P-${String(i).padStart(3, "0")}`);
  writeFileSync(file, `${lines[0]},penguin_id,tag\n${rows.join("\n")}\n`);
}

async function uploadInWizard(page: Page, project: string, file: string) {
  await createProject(page, project);
  await page.getByRole("link", { name: "Train a prediction model" }).first().click();
  await expect(stepHeading(page, 1)).toBeVisible();
  await page.getByRole("button", { name: "Next" }).click();
  await expect(stepHeading(page, 2)).toBeVisible();
  await page.getByLabel("Upload a file").setInputFiles(file);
  await expect(page.getByText(`${path.basename(file)} uploaded`)).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole("button", { name: "Next" })).toBeEnabled({ timeout: 5 * 60_000 });
  await page.getByRole("button", { name: "Next" }).click();
  await expect(stepHeading(page, 3)).toBeVisible();
}

test("a one-column file: the target step says why, and Start stays disabled with the reason", async ({ page }, testInfo) => {
  test.setTimeout(6 * 60_000);
  await uploadInWizard(page, `One column ${testInfo.project.name} ${Date.now()}`, path.join(TABULAR, "one-column.csv"));
  await page.getByLabel("Column to predict (target)").selectOption("body_mass_g");
  await expect(page.getByText(/Suggested task: Regression/)).toBeVisible({ timeout: 5 * 60_000 });
  const refusal = page.getByRole("alert").filter({ hasText: "This cannot be trained as chosen" });
  await expect(refusal).toContainText("body_mass_g is the only column in the file");
  // Nothing to go on to: Next waits for a column that can train.
  await expect(page.getByRole("button", { name: "Next" })).toBeDisabled();
  await expectNoSeriousAxeViolations(page);

  // Its high issue (40 rows are too few to test on) says no choice here fixes it, not "No action needed".
  await page.getByRole("button", { name: /^4\. Data issues/ }).click();
  await expect(stepHeading(page, 4)).toBeVisible();
  const high = page.getByTestId("data-issue").filter({ hasText: "high" });
  await expect(high.first()).toContainText("No choice here fixes this: it needs other data");
  await expect(page.getByTestId("data-issue").filter({ hasText: "high" }).filter({ hasText: "No action needed" })).toHaveCount(0);

  await page.getByRole("button", { name: /^6\. Review and start/ }).click();
  await expect(stepHeading(page, 6)).toBeVisible();
  await expect(page.getByRole("button", { name: "Start training" })).toBeDisabled();
  await expect(page.getByRole("alert").filter({ hasText: "This cannot be trained as chosen" })).toContainText("body_mass_g is the only column in the file");
});

test("ID-like columns: listed apart, a per-row tag refused as classes, a counting id only warned about", async ({ page }, testInfo) => {
  test.setTimeout(6 * 60_000);
  const file = testInfo.outputPath("penguins-ids.csv");
  penguinsWithIds(file);
  await uploadInWizard(page, `IDs ${testInfo.project.name} ${Date.now()}`, file);

  const target = page.getByLabel("Column to predict (target)");
  // Not offered among the targets: in their own group, named as IDs.
  await expect(target.locator('optgroup[label^="Look like row IDs"] option')).toHaveText(["penguin_id (looks like an ID)", "tag (looks like an ID)"]);
  await expect(target.locator("option", { hasText: "species" })).toHaveCount(1);

  await target.selectOption("tag");
  await expect(page.getByText(/Suggested task: Multiclass classification/)).toBeVisible({ timeout: 5 * 60_000 });
  await expect(page.getByRole("alert").filter({ hasText: "This cannot be trained as chosen" })).toContainText("different value in each of its 344 rows");
  await page.getByRole("button", { name: /^6\. Review and start/ }).click();
  await expect(page.getByRole("button", { name: "Start training" })).toBeDisabled();

  await page.getByRole("button", { name: /^3\. Column to predict/ }).click();
  await page.getByLabel("Column to predict (target)").selectOption("penguin_id");
  await expect(page.getByText(/Suggested task: Regression/)).toBeVisible({ timeout: 5 * 60_000 });
  await expect(page.getByTestId("readiness")).toContainText("counting up row by row: it looks like a row ID");
  await expect(page.getByRole("alert").filter({ hasText: "This cannot be trained as chosen" })).toHaveCount(0);
  await expectNoSeriousAxeViolations(page);
  // A warning, not a refusal: Start is allowed once the rest is chosen.
  await page.getByRole("button", { name: /^6\. Review and start/ }).click();
  await expect(page.getByRole("button", { name: "Start training" })).toBeEnabled();
  await expect(page.getByTestId("readiness")).toContainText("looks like a row ID");
});
