/**
 * A project's holdouts on its Data page (issue 32; docs/holdouts.md): reserve a file as a
 * holdout (the same bytes again are the same holdout; bytes that are no table are refused
 * with the reason), see it listed, and delete it after a preview that says its rows go back
 * to training and its file leaves the store; reserve a dated dataset's newest rows. axe on the
 * section, no sideways scroll on a phone.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { expectNoSeriousAxeViolations } from "./axe";
import { createProject, expectNoHorizontalOverflow } from "./steps";

const PENGUINS = path.resolve("tests/fixtures/tabular/penguins.csv");
const WEATHER = path.resolve("tests/fixtures/tabular/seattle_weather.csv");

test("reserve a holdout on the Data page, see it listed, and delete it after its preview", async ({ page }, testInfo) => {
  test.setTimeout(5 * 60_000);
  const phone = testInfo.project.name === "phone";
  // 86 rows of penguins, other rows in each project's run (both runs share one server's store).
  const [header, ...rows] = readFileSync(PENGUINS, "utf8").trim().split("\n");
  const held = testInfo.outputPath("newest.csv");
  writeFileSync(held, [header, ...rows.filter((_, i) => i % 4 === (phone ? 1 : 0))].join("\n") + "\n");
  const notATable = testInfo.outputPath("photo.csv");
  writeFileSync(notATable, Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]));

  await createProject(page, `Holdouts ${testInfo.project.name} ${Date.now()}`);
  await page.getByRole("navigation", { name: "Machine learning" }).getByRole("link", { name: "Data" }).click();
  const section = page.getByRole("region", { name: "Holdouts" });
  await expect(section).toContainText("This project has no holdout.");

  const reserve = async (file: string, name: string) => {
    await section.getByLabel(/^File of rows to keep out/).setInputFiles(file);
    await section.getByLabel(/^Name \(optional/).fill(name);
    await section.getByRole("button", { name: "Reserve as holdout" }).click();
  };
  await reserve(notATable, "broken");
  await expect(section.getByRole("alert")).toContainText(/^Not reserved: photo\.csv contains a NUL byte .*: it is binary data, not a text table/);
  await expect(section.getByTestId("holdout-row")).toHaveCount(0);

  await reserve(held, "newest penguins");
  await expect(section.getByTestId("holdout-said")).toHaveText("Reserved “newest penguins”: 86 rows kept out of every training started from now on.");
  await expect(section.getByTestId("holdout-row")).toHaveCount(1);
  await expect(section.getByTestId("holdout-row")).toContainText("newest penguins — 86 rows from newest.csv");
  await reserve(held, "again");
  await expect(section.getByTestId("holdout-said")).toHaveText("“newest penguins” was already reserved with these bytes.");
  await expect(section.getByTestId("holdout-row")).toHaveCount(1);
  await expectNoSeriousAxeViolations(page);
  if (phone) await expectNoHorizontalOverflow(page);

  await section.getByRole("button", { name: "Delete the holdout newest penguins" }).click();
  const preview = section.getByRole("region", { name: /Delete the holdout/ });
  await expect(preview).toContainText("Its 86 rows go back to training");
  await expect(preview).toContainText("Its file leaves the store of every computer.");
  await expectNoSeriousAxeViolations(page);
  await preview.getByRole("button", { name: "Keep it" }).click();
  await expect(section.getByTestId("holdout-row")).toHaveCount(1);
  await section.getByRole("button", { name: "Delete the holdout newest penguins" }).click();
  await preview.getByRole("button", { name: "Delete holdout" }).click();
  await expect(section.getByTestId("holdout-said")).toHaveText("Deleted the holdout “newest penguins”: its 86 rows go back to training.");
  await expect(section).toContainText("This project has no holdout.");
});

test("reserve the newest rows of a dated dataset as the holdout", async ({ page }, testInfo) => {
  test.setTimeout(5 * 60_000);
  const phone = testInfo.project.name === "phone";
  await createProject(page, `Newest ${testInfo.project.name} ${Date.now()}`);
  await page.getByRole("navigation", { name: "Machine learning" }).getByRole("link", { name: "Data" }).click();
  await page.getByLabel("Data file").setInputFiles(WEATHER);
  await page.getByRole("button", { name: "Upload", exact: true }).click();
  const section = page.getByRole("region", { name: "Holdouts" });
  // Offered once the profile found a date column.
  const form = section.getByRole("form", { name: "Reserve the newest rows of a dataset" });
  await expect(form.getByLabel("Date column")).toHaveValue("date", { timeout: 120_000 });
  await expect(form.getByLabel("Dataset")).toHaveValue(/.+/);
  await form.getByLabel("Newest share (%)").fill("10");
  await form.getByRole("button", { name: "Reserve the newest rows" }).click();
  await expect(section.getByTestId("holdout-said")).toHaveText("Reserved “seattle_weather.csv — newest 10% (from date 2015-08-07T00:00:00)”: 147 rows kept out of every training started from now on.", { timeout: 120_000 });
  await expect(section.getByTestId("holdout-row")).toHaveCount(1);
  await expect(section.getByTestId("holdout-row")).toContainText("147 rows from seattle_weather-newest-10pct.csv");
  await expectNoSeriousAxeViolations(page);
  if (phone) await expectNoHorizontalOverflow(page);
});
