/**
 * A promotion policy decided from a phone: the owner sets approval on a model's card, a new
 * version registered after it waits with the gates' evidence, and one tap on Approve makes
 * it the version in use. axe with the candidate waiting; nothing scrolls sideways at 390 px.
 * Phone only (playwright.config.ts: the desktop project ignores it). The gates, expiry,
 * reject and automatic mode are covered through the real server in
 * server/policies/guarded-promotion.integration.test.ts.
 */
import path from "node:path";
import { expect, test } from "@playwright/test";
import { expectNoSeriousAxeViolations } from "./axe";
import { createProject, expectLaidOutAtScreenWidth, expectNoHorizontalOverflow, trainWithRecommendedChoices } from "./steps";

const PENGUINS = path.resolve("tests/fixtures/tabular/penguins.csv");
const MODEL = "Penguin species";
test.use({ actionTimeout: 60_000 });

test("approve a waiting version from a phone: one tap, and it is in use", async ({ page }) => {
  test.setTimeout(15 * 60_000);
  await createProject(page, `Policy ${Date.now()}`);

  const register = page.getByRole("region", { name: "Register as a model version" });
  const trainAndRegister = async (model: "__new__" | string) => {
    await expect(page.getByTestId("experiment-status")).toContainText("Succeeded", { timeout: 10 * 60_000 });
    if (model === "__new__") await register.getByLabel("New model name").fill(MODEL);
    else await register.getByRole("combobox", { name: "Model", exact: true }).selectOption({ label: model });
    await register.getByRole("button", { name: "Register this experiment" }).click();
    await expect(register.getByTestId("register-result")).toContainText("Registered as version");
  };
  await trainWithRecommendedChoices(page, PENGUINS, "species", 2);
  await trainAndRegister("__new__");

  // Approval on the model's card, before the next version.
  const first = page.url();
  await register.getByRole("link", { name: "Open Models" }).click();
  const card = page.getByRole("region", { name: MODEL });
  await expect(card.getByTestId("policy-panel")).toContainText("No policy");
  await card.getByRole("button", { name: "Set the policy" }).click();
  await expect(card.getByTestId("policy-panel")).toContainText("Approval: each new version that passes the gates waits for you");

  // A second training, registered: nothing is in use, so it passes as the first and waits.
  await page.goto(first);
  await page.getByRole("button", { name: "Run again" }).click();
  await page.getByRole("button", { name: "Yes, run again" }).click();
  await page.waitForURL((u) => /\/ml\/experiments\/[^/]+$/.test(u.pathname) && u.href !== first);
  await trainAndRegister(`${MODEL} (1 version)`);
  await register.getByRole("link", { name: "Open Models" }).click();
  const waiting = card.getByTestId("pending-candidate");
  await expect(waiting).toContainText("Version 2 waits for your approval", { timeout: 60_000 });
  await expect(waiting.getByTestId("candidate-evidence")).toContainText("Nothing is selected yet");
  await expectNoSeriousAxeViolations(page);
  await expectNoHorizontalOverflow(page);
  await expectLaidOutAtScreenWidth(page, 390);

  await waiting.getByRole("button", { name: "Approve version 2" }).tap();
  await expect(card.getByTestId("model-selected")).toContainText("In use: version 2");
  await expect(card.getByTestId("candidate-history")).toContainText("Version 2: promoted");
  await expect(card.getByTestId("pending-candidate")).toHaveCount(0);
});
