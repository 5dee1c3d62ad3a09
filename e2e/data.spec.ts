import { copyFileSync, mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { expectNoSeriousAxeViolations } from "./axe";
import { allowFolder, createProject, expectNoHorizontalOverflow } from "./steps";

const PENGUINS = path.join(import.meta.dirname, "..", "tests", "fixtures", "tabular", "penguins.csv");

// The first data job on a fresh home builds the data tools' environment (pip), which
// the page shows as setup progress; that can take minutes on a cold machine.
test.setTimeout(420_000);

test("upload penguins.csv with progress, see its first rows, its profile and the target checks", async ({ page }, testInfo) => {
  const name = `Penguins ${testInfo.project.name} ${Date.now()}`;
  await createProject(page, name);
  await page.getByRole("navigation", { name: "Machine learning" }).getByRole("link", { name: "Data" }).click();
  await expect(page.getByRole("heading", { name: "Data", level: 2 })).toBeVisible();
  await expect(page.getByText("No data yet")).toBeVisible();
  await expectNoSeriousAxeViolations(page);

  // Slow the upload down (15 KB at 6 KB/s) so the progress bar is really seen moving.
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: 6 * 1024 });
  await page.getByLabel("Data file").setInputFiles(PENGUINS);
  await page.getByRole("button", { name: "Upload", exact: true }).click();
  const bar = page.getByRole("progressbar", { name: "Upload progress" });
  await expect(bar).toBeVisible();
  await expect(page.getByTestId("upload-progress").getByRole("status")).toContainText("Uploading penguins.csv");
  await cdp.send("Network.emulateNetworkConditions", { offline: false, latency: 0, downloadThroughput: -1, uploadThroughput: -1 });

  const detail = page.getByTestId("dataset-detail");
  await expect(detail.getByRole("heading", { name: "penguins.csv" })).toBeVisible();
  const preview = detail.getByTestId("data-preview");
  await expect(preview.getByRole("columnheader", { name: "species" })).toBeVisible();
  await expect(preview.getByRole("row")).toHaveCount(21);

  const profile = detail.getByTestId("profile-table");
  await expect(profile).toBeVisible({ timeout: 400_000 });
  await expect(profile.locator("caption")).toContainText("344 rows, 8 columns");
  await expect(profile.getByRole("rowheader", { name: "species" })).toBeVisible();
  const row = page.getByTestId("dataset-row").filter({ hasText: "penguins.csv" });
  await expect(row).toContainText("344");
  await expect(row.getByRole("link", { name: /Use in a new experiment/ })).toHaveAttribute("href", /\/ml\/train\?dataset=/);
  await expectNoSeriousAxeViolations(page);

  await detail.getByLabel("Column to predict").selectOption("species");
  await detail.getByRole("button", { name: "Check this target" }).click();
  const checks = detail.getByTestId("checks-result");
  await expect(checks).toContainText("multiclass", { timeout: 120_000 });
  await expectNoSeriousAxeViolations(page);

  if (testInfo.project.name === "phone") await expectNoHorizontalOverflow(page);
});

test("an allowed folder set in Settings lets a file on this computer be registered by path", async ({ page }, testInfo) => {
  const folder = mkdtempSync(path.join(os.tmpdir(), "trainyard-e2e-data-"));
  const file = path.join(folder, "penguins-by-path.csv");
  copyFileSync(PENGUINS, file);
  await allowFolder(page, folder);
  await expectNoSeriousAxeViolations(page);

  const name = `By path ${testInfo.project.name} ${Date.now()}`;
  await createProject(page, name);
  await page.getByRole("navigation", { name: "Machine learning" }).getByRole("link", { name: "Data" }).click();
  await page.getByLabel("Path of the file").fill(`${folder}/../elsewhere.csv`);
  await page.getByRole("button", { name: "Register file" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "'..'" })).toBeVisible();
  await page.getByLabel("Path of the file").fill(file);
  await page.getByRole("button", { name: "Register file" }).click();
  const detail = page.getByTestId("dataset-detail");
  await expect(detail.getByRole("heading", { name: "penguins-by-path.csv" })).toBeVisible();
  await expect(detail).toContainText(`from ${file}`);
  await expect(detail.getByTestId("profile-table").locator("caption")).toContainText("344 rows", { timeout: 120_000 });
});
