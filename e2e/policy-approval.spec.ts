/**
 * A promotion policy decided from a phone: the owner promotes version 1, deploys it following
 * the "selected" alias, and sets approval on the model's card with that deployment to bake
 * on, and a latency limit it passes; a new version registered after it waits with the gates' evidence (the minimum useful
 * gain set to 0 in Settings for the test, so an equal score passes; restored after), and one
 * tap on Approve makes it the version in use, the deployment switches to it and the card
 * shows the bake's progress. Stopping the deployment ends the bake. axe with the candidate
 * waiting and with the bake under way; nothing scrolls sideways at 390 px.
 * Phone only (playwright.config.ts: the desktop project ignores it). The gates, expiry,
 * reject, automatic mode and the bake's pass and revert are covered through the real server in
 * server/policies/guarded-promotion.integration.test.ts and promotion-bake.integration.test.ts.
 */
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { expectNoSeriousAxeViolations } from "./axe";
import { createProject, expectLaidOutAtScreenWidth, expectNoHorizontalOverflow, trainWithRecommendedChoices } from "./steps";

const PENGUINS = path.resolve("tests/fixtures/tabular/penguins.csv");
const MODEL = "Penguin species";
test.use({ actionTimeout: 60_000 });

/** Sets Settings → Registry's minimum useful gain; answers the value it had. */
async function setMinimumGain(page: Page, value: string): Promise<string> {
  await page.goto("/settings");
  const gain = page.getByLabel("Minimum useful gain", { exact: true });
  await expect(gain).toHaveValue(/.+/);
  const before = await gain.inputValue();
  await gain.fill(value);
  await page.getByRole("button", { name: "Save registry settings" }).click();
  await expect(page.getByRole("button", { name: "Save registry settings" })).toBeEnabled();
  await page.reload();
  await expect(page.getByLabel("Minimum useful gain", { exact: true })).toHaveValue(value);
  return before;
}

let gainBefore: string | null = null;
test.afterEach(async ({ page }) => {
  // The e2e server is shared by every spec: the registry's gate goes back to what it was.
  if (gainBefore !== null) await setMinimumGain(page, gainBefore);
});

test("approve a waiting version from a phone: one tap, it is in use, and its bake shows", async ({ page }) => {
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
  const first = page.url();
  await register.getByRole("link", { name: "Open Models" }).click();
  await page.waitForURL(/\/ml\/models$/);
  const models = page.url();
  const card = page.getByRole("region", { name: MODEL });

  // Version 1 in use, served by a resident deployment that follows the "selected" alias.
  await card.getByRole("button", { name: "Promote version 1" }).click();
  await page.getByRole("dialog", { name: "Promote version 1?" }).getByRole("button", { name: "Promote version 1" }).click();
  await expect(card.getByTestId("model-selected")).toContainText("In use: version 1");
  await card.getByRole("button", { name: "Deploy version 1" }).click();
  const sheet = page.getByRole("dialog", { name: "Deploy version 1?" });
  await sheet.getByLabel(/^Follow alias “selected”/).check();
  await sheet.getByLabel(/^Resident/).check();
  await sheet.getByRole("button", { name: "Deploy following “selected”" }).click();
  await page.waitForURL(/\/ml\/deployments\/[^/]+$/);
  const deployment = page.url();
  await expect(page.getByTestId("deployment-state")).toHaveText("ready", { timeout: 3 * 60_000 });

  // Approval on the model's card, baking on that deployment, before the next version.
  await page.goto(models);
  const panel = card.getByTestId("policy-panel");
  await expect(panel).toContainText("No policy");
  await panel.getByLabel("Bake on").selectOption({ label: `${MODEL}-selected` });
  // A latency limit well above one LightGBM's (a few ms per row when it was tested): version 2 passes it.
  await panel.getByLabel("Slowest one-row p95 (ms)").fill("5000");
  await card.getByRole("button", { name: "Set the policy" }).click();
  await expect(panel).toContainText("Approval: each new version that passes the gates waits for you");
  await expect(panel).toContainText("single-row predictions at most 5000 ms at the 95th percentile");
  await expect(panel.getByLabel("Largest export (MiB)")).toHaveValue("");
  await expect(panel).toContainText(`Deployment “${MODEL}-selected” follows each promotion and bakes it`);

  // A second training, registered: as good as version 1, which passes with no minimum gain asked; it waits.
  gainBefore = await setMinimumGain(page, "0");
  await page.goto(first);
  await page.getByRole("button", { name: "Run again" }).click();
  await page.getByRole("button", { name: "Yes, run again" }).click();
  await page.waitForURL((u) => /\/ml\/experiments\/[^/]+$/.test(u.pathname) && u.href !== first);
  await trainAndRegister(`${MODEL} (1 version)`);
  await register.getByRole("link", { name: "Open Models" }).click();
  const waiting = card.getByTestId("pending-candidate");
  await expect(waiting).toContainText("Version 2 waits for your approval", { timeout: 60_000 });
  await expect(waiting.getByTestId("candidate-evidence")).toContainText("Better by at least the minimum useful gain (0)");
  await expect(waiting.getByTestId("candidate-evidence")).toContainText(/One-row p95\s*[\d.]+ ms, at most 5000 ms \(timed when it was tested\)/);
  await expectNoSeriousAxeViolations(page);
  await expectNoHorizontalOverflow(page);
  await expectLaidOutAtScreenWidth(page, 390);

  // One tap: in use at once; the deployment switches, and the bake counts its requests.
  await waiting.getByRole("button", { name: "Approve version 2" }).tap();
  await expect(card.getByTestId("model-selected")).toContainText("In use: version 2");
  await expect(card.getByTestId("pending-candidate")).toHaveCount(0);
  const bake = card.getByTestId("bake");
  await expect(bake).toContainText(`Version 2 bakes on deployment “${MODEL}-selected”`, { timeout: 3 * 60_000 });
  await expect(bake).toContainText("Requests: 0 of 20");
  await expect(bake).toContainText("Minutes: 0 of 15");
  await expect(bake).toContainText("back on version 1");
  await expectNoSeriousAxeViolations(page);
  await expectNoHorizontalOverflow(page);

  // Stopping the deployment by hand ends the bake; version 2 stays in use.
  await page.goto(deployment);
  await page.getByRole("button", { name: "Stop…" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Stop it" }).click();
  await expect(page.getByTestId("deployment-state")).toHaveText("stopped", { timeout: 60_000 });
  await page.goto(models);
  await expect(card.getByTestId("candidate-history")).toContainText("Version 2: bake ended by a change made by hand", { timeout: 30_000 });
  await expect(card.getByTestId("bake")).toHaveCount(0);
  await expect(card.getByTestId("model-selected")).toContainText("In use: version 2");
});
