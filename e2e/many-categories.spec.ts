/**
 * A category with more values than the feature schema lists (it keeps the 50 most common):
 * Try a prediction offers a text field with the values seen in training as suggestions, so a
 * row's own value (one of the rarer ones) can be typed and predicted. Real training on
 * penguins plus a `colony` column of 80 names.
 */
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { expectNoSeriousAxeViolations } from "./axe";
import { createProject, expectNoHorizontalOverflow, trainWithRecommendedChoices } from "./steps";

const PENGUINS = path.resolve("tests/fixtures/tabular/penguins.csv");
const SYLLABLES = ["ka", "lo", "mi", "ne", "su", "ta", "ri", "vo", "ze", "bu"];
/** 80 names made of two syllables and a letter ("kalo-a"): words, not codes, so not taken for an ID. */
const COLONIES = Array.from({ length: 80 }, (_, i) => `${SYLLABLES[i % 10]}${SYLLABLES[Math.floor(i / 10) % 10]}-${"abcdefgh"[Math.floor(i / 10)]}`);

test("a category with many values is typed with suggestions in Try a prediction, and a rare value predicts", async ({ page }, testInfo) => {
  test.setTimeout(12 * 60_000);
  const lines = readFileSync(PENGUINS, "utf8").trimEnd().split("\n");
  const file = testInfo.outputPath("penguins-colonies.csv");
  writeFileSync(file, `${lines[0]},colony\n${lines.slice(1).map((l, i) => `${l},${COLONIES[i % COLONIES.length]}`).join("\n")}\n`);
  await createProject(page, `Colonies ${testInfo.project.name} ${Date.now()}`);
  await trainWithRecommendedChoices(page, file, "species", 2);

  const colony = page.getByLabel(/^colony/);
  await expect(colony).toBeVisible({ timeout: 8 * 60_000 });
  await expect(colony).toHaveJSProperty("tagName", "INPUT");
  const listId = await colony.getAttribute("list");
  const suggested = await page.locator(`datalist[id="${listId}"] option`).evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
  expect(suggested).toHaveLength(50);
  const rare = COLONIES.find((c) => !suggested.includes(c))!;
  await colony.fill(rare);
  await expect(colony).toHaveValue(rare);
  await page.getByRole("button", { name: "Predict", exact: true }).click();
  await expect(page.getByTestId("try-result")).toContainText(/Prediction: (Adelie|Chinstrap|Gentoo)/, { timeout: 3 * 60_000 });
  await expectNoSeriousAxeViolations(page);
  if (testInfo.project.name === "phone") await expectNoHorizontalOverflow(page);
});
