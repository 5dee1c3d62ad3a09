/**
 * Deploying from the registry in the browser, on desktop and phone, with one real quick
 * penguins training registered as version 1: Deploy opens the sheet, a resident
 * deployment opens its page and becomes ready; the test console works with no key made by
 * hand (this server has no owner password, so a deployment answers only to its keys: the
 * console makes its own, short-lived and listed): a required field left empty is refused
 * next to that field, and filled in it answers a species with class probabilities from the
 * serving process; a key created on the page is shown once. A monitor started from the page judges a window of 60 rows on Check now
 * and charts it. The curl and Python examples carry this server's URL and the key; the
 * OpenAPI document describes the route; the Deployments view counts the request, and Stop
 * ends it; a second Deploy under the taken name is refused next to the name field. A
 * second training of the same data is registered as version 2; an on-demand deployment of
 * version 1 switches to it behind its confirmation (with a why), answers from release 2,
 * and rolls back to version 1 as release 3, its Releases list growing each time. axe on
 * the sheet, the deployment pages (with the switch confirmation open) and the Deployments view.
 */
import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { ONE_LIGHTGBM } from "../server/testing/one-model";
import { expectNoSeriousAxeViolations } from "./axe";
import { createProject, expectLaidOutAtScreenWidth, expectNoHorizontalOverflow, trainWithRecommendedChoices, trpcMutation, trpcQuery } from "./steps";

const PENGUINS = path.resolve("tests/fixtures/tabular/penguins.csv");
const MODEL = "Penguin species";
test.use({ actionTimeout: 60_000 });

/** Penguins rows as a client sends them: NA as null, numbers as numbers, no target. */
function penguinRows(): Record<string, string | number | null>[] {
  const [header, ...lines] = readFileSync(PENGUINS, "utf8").trim().split("\n");
  const names = header!.split(",");
  return lines.map((line) => {
    const cells = line.split(",");
    return Object.fromEntries(names.flatMap((n, i) => (n === "species" ? [] : [[n, cells[i] === "NA" ? null : Number.isNaN(Number(cells[i])) ? cells[i]! : Number(cells[i])]])));
  });
}

type Experiment = { id: string; projectId: string; datasetId: string; settings: Record<string, unknown> };

test("deploy a registered version from its Deploy button, see it ready, predict in the test console, copy the examples", async ({ page }, testInfo) => {
  test.setTimeout(14 * 60_000);
  const phone = testInfo.project.name === "phone";
  const fits = async () => {
    if (!phone) return;
    await expectNoHorizontalOverflow(page);
    await expectLaidOutAtScreenWidth(page, 390);
  };
  await createProject(page, `Deploy ${testInfo.project.name} ${Date.now()}`);
  const firstUrl = await trainWithRecommendedChoices(page, PENGUINS, "species", 1);
  // A second training of the same data and settings meanwhile: version 2, for the switch below.
  const first = await trpcQuery<Experiment>(page.request, "experiments.get", { id: firstUrl.split("/").pop() });
  const second = await trpcMutation<{ id: string }>(page.request, "experiments.start", { opId: randomUUID(), projectId: first.projectId, datasetId: first.datasetId, settings: { ...first.settings, hyperparameters: ONE_LIGHTGBM } });
  await expect(page.getByTestId("experiment-status")).toContainText("Succeeded", { timeout: 5 * 60_000 });
  const register = page.getByRole("region", { name: "Register as a model version" });
  await register.getByLabel("New model name").fill(MODEL);
  await register.getByRole("button", { name: "Register this experiment" }).click();
  await expect(register.getByTestId("register-result")).toContainText(`Registered as version 1 of “${MODEL}”`);
  await page.goto(firstUrl.replace(/[^/]+$/, second.id));
  await expect(page.getByTestId("experiment-status")).toContainText("Succeeded", { timeout: 5 * 60_000 });
  await register.getByRole("combobox", { name: "Model", exact: true }).selectOption({ label: `${MODEL} (1 version)` });
  await register.getByRole("button", { name: "Register this experiment" }).click();
  await expect(register.getByTestId("register-result")).toContainText(`Registered as version 2 of “${MODEL}”`);
  await register.getByRole("link", { name: "Open Models" }).click();

  // Deploy version 1, resident, on the computer it was trained on (the default).
  const card = page.getByRole("region", { name: MODEL });
  await card.getByRole("button", { name: "Deploy version 1" }).click();
  const sheet = page.getByRole("dialog", { name: "Deploy version 1?" });
  await expect(sheet.getByLabel("Computer")).toHaveValue(/.+/);
  await sheet.getByLabel(/^Resident/).check();
  await expectNoSeriousAxeViolations(page);
  await sheet.getByRole("button", { name: "Deploy version 1" }).click();
  await page.waitForURL(/\/ml\/deployments\/[^/]+$/);
  const deploymentId = new URL(page.url()).pathname.split("/").pop()!;
  await expect(page.getByTestId("deployment-state")).toHaveText("ready", { timeout: 3 * 60_000 });
  await expect(page.getByTestId("deployment-card")).toContainText("resident on");

  // No owner password and no key made by hand: the console sends a console key of its own.
  // island (never missing in training) left empty is refused next to the field.
  const consoleForm = page.getByRole("form", { name: "Test console" });
  const island = consoleForm.getByLabel(/^island/);
  const chosen = await island.inputValue();
  await island.selectOption("");
  await consoleForm.getByRole("button", { name: "Send to the deployment" }).click();
  await expect(island).toHaveAttribute("aria-invalid", "true");
  await expect(consoleForm.getByTestId("console-field-problem")).toContainText("required");
  await island.selectOption(chosen);
  await consoleForm.getByRole("button", { name: "Send to the deployment" }).click();
  const result = consoleForm.getByTestId("console-result");
  await expect(result).toContainText(/Prediction: (Adelie|Chinstrap|Gentoo)/);
  await expect(result).toContainText("release 1, version 1");
  await expect(result.getByRole("list", { name: "Class probabilities" }).getByRole("listitem")).toHaveCount(3);
  // The console's key is listed with the keys, with its end; one was made for both sends.
  const keys = page.getByTestId("deployment-keys");
  await expect(keys.getByText("Console of the deployment page")).toHaveCount(1);
  await expect(keys).toContainText(/Console of the deployment page\s*works until/);

  // A key created on the page is shown once; the examples below carry it.
  await page.getByRole("button", { name: "Create a key" }).click();
  const key = (await page.getByTestId("new-key").textContent())!.split("Shown only")[0]!.trim();
  expect(key.length).toBeGreaterThan(10);

  // Watch it: the monitor bins the version's training data, then counts each request's bins (never its values).
  const monitoring = page.getByRole("region", { name: "Monitoring" });
  await monitoring.getByRole("button", { name: "Watch this deployment" }).click();
  await expect(monitoring.getByTestId("monitor-sentence")).toContainText("the first verdict comes after 200 requests", { timeout: 3 * 60_000 });
  const rows = penguinRows().filter((_, i) => i % 5 === 0).slice(0, 60);
  const sent = await page.request.post(`/api/deployments/${deploymentId}/predict`, { headers: { authorization: `Bearer ${key}` }, data: { rows } });
  expect(sent.status(), await sent.text()).toBe(200);
  await monitoring.getByRole("button", { name: "Check now" }).click();
  const windows = monitoring.getByTestId("monitor-windows");
  await expect(windows.getByRole("row")).toHaveCount(2);
  await expect(windows.getByRole("row").nth(1)).toContainText(/^1\s*1\s*(ok|drift)/);
  await expect(monitoring.getByTestId("monitor-sentence")).toContainText(/^No alert/);
  await expect(monitoring.getByTestId("monitor-charts")).toBeVisible();
  await expect(monitoring.getByTestId("monitor-histograms")).toBeVisible();
  await monitoring.getByLabel("Column").selectOption("island");
  await expectNoSeriousAxeViolations(page);
  await fits();

  // A resident switch says beforehand whether the computer holds both releases (no failed request) or means a short downtime.
  await page.getByRole("button", { name: "Switch…", exact: true }).click();
  const residentSwitch = page.getByRole("alertdialog", { name: /^Switch / });
  await expect(residentSwitch.getByTestId("release-change")).toContainText("from release 1 (version 1) to version 2, as release 2");
  await expect(residentSwitch.getByTestId("switch-effect").or(residentSwitch.getByTestId("switch-downtime"))).toContainText(/switch (loads|unloads)|no room for both/i);
  await residentSwitch.getByRole("button", { name: "Cancel" }).click();
  await expect(residentSwitch).toHaveCount(0);

  // The examples: this server's URL, the predict route, the key just created, a row of the schema.
  const origin = new URL(page.url()).origin;
  const curl = page.getByTestId("curl-example");
  await expect(curl).toContainText(`curl -s -X POST '${origin}/api/deployments/${deploymentId}/predict'`);
  await expect(curl).toContainText(`Bearer ${key}`);
  await expect(curl).toContainText('"island":');
  await expect(page.getByTestId("python-example")).toContainText(`"${origin}/api/deployments/${deploymentId}/predict"`);
  await expectNoSeriousAxeViolations(page);
  await fits();

  // The OpenAPI document describes the route the console called.
  const doc = (await (await page.request.get("/api/openapi.json")).json()) as { openapi: string; paths: Record<string, unknown>; components: { schemas: Record<string, { required?: string[] }> } };
  expect(doc.openapi).toBe("3.1.0");
  expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(["/api/deployments/{id}/predict", "/api/deployments/{id}/health", "/api/deployments/{id}/generate", "/api/deployments/{id}/stream"]));
  expect(doc.components.schemas.PredictAnswer?.required).toEqual(expect.arrayContaining(["predictions", "release"]));

  // The Deployments view counts the answered request (the refused ones never reached the model).
  await page.getByRole("link", { name: "All deployments" }).click();
  await expect(page.getByTestId("deployment-latency")).toContainText(/request(s)? since release 1.*p50 ≤ [\d.]+ m?s, p95 ≤ [\d.]+ m?s/, { timeout: 20_000 });
  await expectNoSeriousAxeViolations(page);
  await fits();
  // The project's first screen says how each deployment is doing, at a phone's width too.
  const deploymentsView = page.url();
  await page.goto(deploymentsView.replace(/\/deployments$/, ""));
  const health = page.getByTestId("deployments-health");
  await expect(health).toContainText("How the deployments are doing");
  await expect(health.getByRole("listitem")).toHaveCount(1);
  await expect(health.getByTestId("deployment-health")).toHaveText(/^(healthy|not enough traffic)$/);
  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoHorizontalOverflow(page);
  await expectLaidOutAtScreenWidth(page, 390);
  await expectNoSeriousAxeViolations(page);
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.goto(deploymentsView);

  // Stop it behind its confirmation: the serving process ends and its computer is free again
  // (a resident process holds a share of the worker's CPUs, which later trainings need).
  await page.getByRole("button", { name: "Stop…" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Stop it" }).click();
  await expect(page.getByTestId("deployment-state")).toHaveText("stopped", { timeout: 60_000 });

  // A second deployment under the same name is refused next to the name field.
  await page.getByRole("navigation", { name: "Machine learning" }).getByRole("link", { name: "Models" }).click();
  await card.getByRole("button", { name: "Deploy version 1" }).click();
  await sheet.getByRole("button", { name: "Deploy version 1" }).click();
  await expect(sheet.getByTestId("deploy-refusal")).toContainText("already exists");
  await expect(sheet.getByLabel("Name (optional)").locator("xpath=following-sibling::*[1]")).toHaveAttribute("data-testid", "deploy-refusal");

  // Under another name, on demand: it is ready at once (each request runs a short predict job).
  const onDemand = `${MODEL} on demand`;
  await sheet.getByLabel("Name (optional)").fill(onDemand);
  await sheet.getByLabel(/^On demand/).check();
  await sheet.getByRole("button", { name: "Deploy version 1" }).click();
  await page.waitForURL(/\/ml\/deployments\/[^/]+$/);
  await expect(page.getByTestId("deployment-state")).toHaveText("ready", { timeout: 60_000 });
  const deployment = page.getByTestId("deployment-card");
  await expect(deployment).toContainText("release 1 (version 1)");
  const releases = page.getByRole("list", { name: "Releases, newest first" }).getByTestId("release-row");
  await expect(releases).toHaveCount(1);
  await expect(page.getByRole("button", { name: "Roll back…", exact: true })).toHaveCount(0);

  // Switch… to version 2 with a why: the confirmation says what changes, then release 2 serves it.
  await page.getByRole("button", { name: "Switch…", exact: true }).click();
  const switchDialog = page.getByRole("alertdialog", { name: `Switch ${onDemand}` });
  await expect(switchDialog.getByLabel("Version to serve")).toHaveValue("2");
  await expect(switchDialog.getByTestId("release-change")).toHaveText(`Switch "${onDemand}" from release 1 (version 1) to version 2, as release 2.`);
  await expect(switchDialog.getByTestId("switch-effect")).toContainText("the next request uses version 2");
  await expect(switchDialog.getByRole("button", { name: "Switch to version 2" })).toBeDisabled();
  await switchDialog.getByLabel("Why (kept with the release)").fill("the second training, to compare in use");
  await expectNoSeriousAxeViolations(page);
  await fits();
  await switchDialog.getByRole("button", { name: "Switch to version 2" }).click();
  await expect(switchDialog).toHaveCount(0, { timeout: 60_000 });
  await expect(deployment).toContainText("release 2 (version 2)");
  await expect(releases).toHaveCount(2);
  await expect(releases.first()).toContainText("Release 2");
  await expect(releases.first()).toContainText("the second training, to compare in use");

  // The next request answers from release 2 (the console makes a key of this deployment: keys belong to one deployment).
  await consoleForm.getByRole("button", { name: "Send to the deployment" }).click();
  await expect(result).toContainText("release 2, version 2", { timeout: 3 * 60_000 });

  // Roll back… names the release it returns to; it becomes release 3, serving version 1 again.
  await page.getByRole("button", { name: "Roll back…", exact: true }).click();
  const rollbackDialog = page.getByRole("alertdialog", { name: `Roll back ${onDemand}` });
  await expect(rollbackDialog.getByTestId("release-change")).toHaveText(`Roll back "${onDemand}" from release 2 (version 2) to version 1 (back to release 1), as release 3.`);
  await rollbackDialog.getByLabel("Why (kept with the release)").fill("keep version 1 for now");
  await rollbackDialog.getByRole("button", { name: "Roll back to version 1" }).click();
  await expect(rollbackDialog).toHaveCount(0, { timeout: 60_000 });
  await expect(deployment).toContainText("release 3 (version 1)");
  await expect(releases).toHaveCount(3);
  await expect(releases.first()).toContainText("rollback");
  await expect(releases.first()).toContainText("keep version 1 for now (back to release 1)");
  await expectNoSeriousAxeViolations(page);
  await fits();
});
