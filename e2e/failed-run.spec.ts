/**
 * A failed run as a user meets it. The training process dies mid-run (SIGKILL, as the
 * kernel's out-of-memory killer or a reboot would do it) under the real worker and real
 * recipes on penguins; the experiment page then says in plain words which step failed and
 * what to do next (no bare reason code or traceback), paints no phase of it green that did
 * not finish, shows no finished train step and no verdict; the experiments list files it
 * under "Failed or stopped" and the Overview says it failed before it was scored, never
 * "No experiment has finished yet". Axe on each page; no sideways scrolling on a phone.
 */
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import path from "node:path";
import { expect, test, type Page } from "@playwright/test";
import { expectNoSeriousAxeViolations } from "./axe";
import { createProject, expectNoHorizontalOverflow, trainWithRecommendedChoices } from "./steps";

const PENGUINS = path.resolve("tests/fixtures/tabular/penguins.csv");
const HOME = process.env.TRAINYARD_E2E_HOME!;

/**
 * Processes of this server's worker running the tabular recipe's train job: a cold one by
 * its argv, one forked from the warm runner by its name (`tabular.train`) and its working
 * folder, which is the job's own under this data home (its argv is the runner's).
 */
function trainProcesses(): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let argv: string[];
    let comm: string;
    let cwd = "";
    try {
      argv = readFileSync(`/proc/${entry}/cmdline`, "utf8").split("\0");
      comm = readFileSync(`/proc/${entry}/comm`, "utf8").trim();
      if (comm === "tabular.train") cwd = readlinkSync(`/proc/${entry}/cwd`);
    } catch {
      continue; // gone meanwhile
    }
    const input = argv[argv.indexOf("--input") + 1] ?? "";
    const cold = argv.includes("recipes.tabular") && argv.includes("train") && input.startsWith(HOME);
    const warm = comm === "tabular.train" && cwd.startsWith(HOME);
    if (cold || warm) pids.push(Number(entry));
  }
  return pids;
}

const ml = (page: Page, tab: string) => page.getByRole("navigation", { name: "Machine learning" }).getByRole("link", { name: tab });

test("a run whose training process dies says what failed and what to do, and is not 'nothing finished'", async ({ page }, testInfo) => {
  test.setTimeout(15 * 60_000);
  const phone = testInfo.project.name === "phone";
  await createProject(page, `Failed ${testInfo.project.name} ${Date.now()}`);
  // Minutes enough that a busy machine still reaches training inside the budget.
  const experimentUrl = await trainWithRecommendedChoices(page, PENGUINS, "species", 8);
  const name = (await page.getByRole("heading", { level: 2 }).first().textContent())!.trim();

  // Training starts; its process is killed as the out-of-memory killer would.
  await expect.poll(trainProcesses, { timeout: 6 * 60_000, intervals: [250] }).not.toEqual([]);
  for (const pid of trainProcesses()) process.kill(pid, "SIGKILL");
  await expect(page.getByTestId("experiment-status")).toContainText("Failed", { timeout: 3 * 60_000 });
  await page.reload();

  // Said first, in words: which step, and the next action; codes folded away.
  const summary = page.getByTestId("outcome-summary");
  await expect(summary).toContainText("Training models");
  await expect(summary).toContainText("ran out of memory");
  await expect(summary).not.toContainText(/Traceback|exit_code|\bSIGKILL\b/);
  await expect(page.getByTestId("outcome-action")).toContainText("Run again");
  await expect(page.getByTestId("outcome")).toContainText("Failed");

  // Phases and steps agree with the outcome: training failed, nothing after it is done, no verdict.
  await expect(page.getByTestId("phase-training")).toHaveAttribute("data-state", "failed");
  for (const later of ["evaluating", "comparing"]) await expect(page.getByTestId(`phase-${later}`)).not.toHaveAttribute("data-state", "done");
  await page.getByText("Steps", { exact: true }).click();
  const trainRow = page.locator('[data-testid="step-row"][data-step="train"]');
  await expect(trainRow).toContainText("failed");
  await expect(trainRow).not.toContainText("finished");
  await expect(page.locator('[data-testid="step-row"][data-step="package"]')).not.toContainText("finished");
  await expect(page.getByTestId("verdict")).toHaveCount(0);
  await expect(page.getByText("Training finished")).toHaveCount(0);
  await expectNoSeriousAxeViolations(page);
  if (phone) await expectNoHorizontalOverflow(page);
  await page.screenshot({ path: testInfo.outputPath(`failed-${testInfo.project.name}.png`), fullPage: true });

  // The experiments list: a failed run, filed under "Failed or stopped".
  await ml(page, "Experiments").click();
  const row = page.getByTestId("experiment-row").filter({ hasText: name });
  await expect(row).toContainText("Failed");
  await page.getByLabel("Show").selectOption("failed");
  await expect(row).toBeVisible();
  await expect(page.getByText("No experiment has finished yet")).toHaveCount(0);
  await expectNoSeriousAxeViolations(page);

  // The Overview speaks of that run as failed, not as "nothing finished".
  await ml(page, "Overview").click();
  await expect(page.getByTestId("overview-improving")).toContainText(name);
  await expect(page.getByTestId("overview-better")).toContainText(`${name} failed before it was scored`);
  await expect(page.getByText("No experiment has finished yet")).toHaveCount(0);
  await expectNoSeriousAxeViolations(page);
  if (phone) await expectNoHorizontalOverflow(page);

  // The page reads the same after a fresh load from the list.
  await page.goto(experimentUrl);
  await expect(page.getByTestId("outcome-summary")).toContainText("Training models");
});
