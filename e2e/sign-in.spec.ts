/**
 * Signing in through the real page on a server with an owner password (its own server:
 * the shared e2e server has none), then ending every session from Settings.
 */
import { expect, test, type Browser } from "@playwright/test";
import { cli, startServer, tempHome, type ServerProcess } from "../tests/support/server-process";
import { expectNoSeriousAxeViolations } from "./axe";
import { expectNoHorizontalOverflow } from "./steps";

const PASSWORD = "correct horse battery";
let server: ServerProcess;

test.beforeAll(async () => {
  const home = tempHome();
  const set = cli(["owner", "set-password"], { TRAINYARD_HOME: home }, `${PASSWORD}\n`);
  expect(set.status, set.stderr).toBe(0);
  server = await startServer({ home });
});
test.afterAll(() => server?.stop());

async function signedOutPage(browser: Browser) {
  const context = await browser.newContext({ baseURL: server.url });
  return { context, page: await context.newPage() };
}

test("a page asked for before signing in opens after signing in; Sign out everywhere ends every browser's session", async ({ browser }) => {
  const { page } = await signedOutPage(browser);
  await page.goto("/settings");
  await expect(page).toHaveURL(/\/login\?next=%2Fsettings$/);
  await expect(page.getByText("After signing in you will be taken to")).toContainText("/settings");
  await expectNoSeriousAxeViolations(page);
  await page.getByLabel("Owner password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(`${server.url}/settings`);

  // A second browser signs in too.
  const other = await signedOutPage(browser);
  expect((await other.context.request.post("/api/auth/login", { data: { password: PASSWORD } })).status()).toBe(200);
  expect((await other.context.request.get("/settings", { maxRedirects: 0 })).status()).toBe(200);

  await page.reload();
  const sessions = page.getByRole("list", { name: "Signed-in browsers" });
  await expect(sessions.getByRole("listitem")).toHaveCount(2);
  await expect(sessions.getByRole("listitem").filter({ hasText: "This browser" })).toHaveCount(1);
  await expectNoHorizontalOverflow(page);
  await expectNoSeriousAxeViolations(page);
  await page.getByRole("button", { name: "Sign out everywhere" }).click();
  await expect(page).toHaveURL(/\/login$/);
  expect((await other.context.request.get("/settings", { maxRedirects: 0 })).status()).toBe(303);
  await page.goto("/settings");
  await expect(page).toHaveURL(/\/login\?next=/);
});

test("signing in with a next= that leads to another site lands on this site's start page", async ({ browser }) => {
  const { page } = await signedOutPage(browser);
  await page.goto(`/login?next=${encodeURIComponent("/\\evil.example")}`);
  await expect(page.getByText("After signing in you will be taken to")).toHaveCount(0);
  await page.getByLabel("Owner password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(`${server.url}/`);
});

test("Settings creates a read-only token that is shown once, works for reading, and stops working when revoked", async ({ browser }) => {
  const { page, context } = await signedOutPage(browser);
  await page.goto("/login?next=%2Fsettings");
  await page.getByLabel("Owner password").fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page).toHaveURL(`${server.url}/settings`);
  const form = page.getByRole("form", { name: "Create an API token" });
  await form.getByLabel("New token name").fill("ci reader");
  await form.getByLabel("Expires after (optional)").fill("30d");
  await form.getByRole("radio", { name: /^read-only:/ }).check();
  await form.getByRole("button", { name: "Create token" }).click();
  const shown = form.getByRole("status").locator("code");
  await expect(shown).toHaveText(/^tyt_/);
  const token = (await shown.textContent())!;
  await expectNoSeriousAxeViolations(page);
  const item = page.getByRole("list", { name: "API tokens" }).getByRole("listitem").filter({ hasText: "ci reader" });
  await expect(item).toContainText("read-only, active");
  await expect(item).toContainText("expires");

  const list = `/api/trpc/projects.list?input=${encodeURIComponent(JSON.stringify({ json: {} }))}`;
  const api = await browser.newContext({ baseURL: server.url, extraHTTPHeaders: { authorization: `Bearer ${token}` } });
  expect((await api.request.get(list)).status()).toBe(200);
  await item.getByRole("button", { name: "Revoke the token ci reader" }).click();
  await expect(item).toContainText("read-only, revoked");
  expect((await api.request.get(list)).status()).toBe(401);
  await context.close();
});
