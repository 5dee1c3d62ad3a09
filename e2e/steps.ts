/** Steps several specs share: creating a project, opening the Add server form, the phone layout check. */
import { expect, type APIRequestContext, type Page } from "@playwright/test";

/** Creates a project on the Projects page; creating it opens it. */
export async function createProject(page: Page, name: string) {
  await page.goto("/");
  // The list is fetched in the browser: once it shows, the form is hydrated and typing sticks.
  await expect(page.getByRole("list", { name: "Projects" }).or(page.getByText(/No (active )?projects/))).toBeVisible();
  await page.getByLabel("New project name").fill(name);
  await page.getByRole("button", { name: "Create project" }).click();
  await page.waitForURL(/\/projects\/[^/]+\/ml$/);
  await expect(page.getByRole("heading", { name, level: 1 })).toBeVisible();
}

/** Nothing on the page is wider than the screen (no sideways scrolling on a phone). */
export async function expectNoHorizontalOverflow(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

/** The list is fetched in the browser: once Add server is enabled, the page is hydrated and typing sticks. */
export async function openAddServerForm(page: Page) {
  await page.goto("/settings");
  const add = page.getByRole("button", { name: "Add server" });
  await expect(add).toBeEnabled();
  await expect(page.getByRole("article").first()).toBeVisible();
  await add.click();
  const form = page.getByRole("form", { name: "Add a server" });
  await expect(form).toBeVisible();
  return form;
}

/**
 * Trains through the wizard with its recommended choices: upload `file`, predict `target`,
 * Quick baseline with `minutes` for the whole experiment, Start. Returns the experiment's URL.
 */
export async function trainWithRecommendedChoices(page: Page, file: string, target: string, minutes: number): Promise<string> {
  const step = (n: number) => page.getByRole("heading", { name: new RegExp(`^Step ${n} of 6`) });
  await page.getByRole("link", { name: "Train a prediction model" }).first().click();
  await expect(step(1)).toBeVisible();
  await page.getByRole("button", { name: "Next" }).click();
  await expect(step(2)).toBeVisible();
  await page.getByLabel("Upload a file").setInputFiles(file);
  await expect(page.getByText(`${file.split("/").pop()} uploaded`)).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole("button", { name: "Next" })).toBeEnabled({ timeout: 5 * 60_000 });
  await page.getByRole("button", { name: "Next" }).click();
  await expect(step(3)).toBeVisible();
  await page.getByLabel("Column to predict (target)").selectOption(target);
  await expect(page.getByText(/Suggested task: /)).toBeVisible({ timeout: 5 * 60_000 });
  await page.getByRole("button", { name: "Next" }).click();
  await expect(step(4)).toBeVisible();
  await page.getByRole("button", { name: "Next" }).click();
  await expect(step(5)).toBeVisible();
  await page.getByLabel(/Quick baseline/).check();
  await page.getByLabel("Max minutes (whole experiment)").fill(String(minutes));
  await page.getByRole("button", { name: "Next" }).click();
  await expect(step(6)).toBeVisible();
  await page.getByRole("button", { name: "Start training" }).click();
  await page.waitForURL(/\/ml\/experiments\/[^/]+$/);
  return page.url();
}

/**
 * The phone lays the page out at the screen's width: a mobile browser widens its layout
 * viewport to fit content that sticks out (then innerWidth grows with scrollWidth and
 * expectNoHorizontalOverflow alone cannot see it), so the width itself is checked too.
 */
export async function expectLaidOutAtScreenWidth(page: Page, width: number) {
  const { inner, scroll } = await page.evaluate(() => ({ inner: window.innerWidth, scroll: document.documentElement.scrollWidth }));
  expect({ inner, scroll }).toEqual({ inner: width, scroll: width });
}

/** A tRPC query through the signed-in page's request context (superjson's envelope), answered 200. */
export async function trpcQuery<T>(request: APIRequestContext, proc: string, input: unknown): Promise<T> {
  const res = await request.get(`/api/trpc/${proc}?input=${encodeURIComponent(JSON.stringify({ json: input }))}`);
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { result: { data: { json: T } } }).result.data.json;
}

/** A tRPC mutation, likewise. */
export async function trpcMutation<T>(request: APIRequestContext, proc: string, input: unknown): Promise<T> {
  const res = await request.post(`/api/trpc/${proc}`, { data: { json: input } });
  expect(res.status(), await res.text()).toBe(200);
  return ((await res.json()) as { result: { data: { json: T } } }).result.data.json;
}

/** Adds `folder` to the allowed folders for files by path (keeping the ones other specs set). */
export async function allowFolder(page: Page, folder: string) {
  await page.goto("/settings");
  const section = page.getByRole("region", { name: "Data" });
  const field = section.getByLabel("Allowed folders (one per line)");
  await expect(section.getByText(/never changes or deletes anything in these folders/)).toBeVisible();
  const current = (await field.inputValue()).trim();
  await field.fill(current ? `${current}\n${folder}` : folder);
  await section.getByRole("button", { name: "Save data settings" }).click();
  await expect(section.getByRole("status").filter({ hasText: "Saved" })).toBeVisible();
}

/** The fine-tune specs' model and examples: the tiny random GPT-2 and GSM8K prompt/completion pairs (tests/fixtures, training/…/fixtures). */
export const TINY_GPT2 = "tests/fixtures/models/lm-buddy-fake-gpt2";
export const GSM8K_EXAMPLES = "training/recipes/llm_lora/tests/fixtures/gsm8k-prompt-completion.jsonl";

/** The fine-tune wizard's heading of step `n` (of 6). */
export const fineTuneStep = (page: Page, n: number) => page.getByRole("heading", { name: new RegExp(`^Step ${n} of 6`) });

/** The wizard's Next. */
export const nextStep = (page: Page) => page.getByRole("button", { name: "Next" }).click();
