/**
 * The delete preview names the other project when a same-named dataset there shares the
 * bytes (issue 12, "Smaller things"): one file uploaded in two projects is one snapshot.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { expectNoSeriousAxeViolations } from "./axe";
import { createProject } from "./steps";

const ONE_COLUMN = path.resolve("tests/fixtures/tabular/one-column.csv");

async function uploadInDataTab(page: Page, file: string) {
  await page.getByRole("navigation", { name: "Machine learning" }).getByRole("link", { name: "Data" }).click();
  await expect(page.getByRole("heading", { name: "Data", level: 2 })).toBeVisible();
  await page.getByLabel("Data file").setInputFiles(file);
  await page.getByRole("button", { name: "Upload", exact: true }).click();
  await expect(page.getByTestId("dataset-row").filter({ hasText: "one-column.csv" })).toBeVisible({ timeout: 60_000 });
}

test("deleting a dataset whose bytes another project shares names that project", async ({ page }, testInfo) => {
  test.setTimeout(5 * 60_000);
  // Bytes of this run only (the phone and desktop runs share one server, so one store).
  const file = testInfo.outputPath("one-column.csv");
  writeFileSync(file, `${readFileSync(ONE_COLUMN, "utf8")}${Date.now() % 100000}\n`);
  const first = `Shared first ${testInfo.project.name} ${Date.now()}`;
  await createProject(page, first);
  await uploadInDataTab(page, file);
  await createProject(page, `Shared second ${testInfo.project.name} ${Date.now()}`);
  await uploadInDataTab(page, file);

  await page.getByRole("button", { name: "Delete one-column.csv" }).click();
  const preview = page.getByRole("region", { name: /Delete one-column\.csv/ });
  await expect(preview).toContainText(`The data stays in the store because one-column.csv in project “${first}” also uses the same bytes; nothing is freed.`);
  await expectNoSeriousAxeViolations(page);
});
