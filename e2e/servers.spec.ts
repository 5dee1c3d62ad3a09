/**
 * Settings → Training computers → Add server on every viewport: its layout, validation
 * next to the field, and accessibility. The enrollment against a real sshd is in
 * servers-ssh.spec.ts (desktop only).
 */
import { expect, test } from "@playwright/test";
import { expectNoSeriousAxeViolations } from "./axe";
import { expectNoHorizontalOverflow, openAddServerForm } from "./steps";

const SAFE_PATH_MESSAGE = "Use an absolute path (or ~/…) of letters, digits and / . _ - + only.";

test("the Add server form explains a worker directory it refuses, next to the field", async ({ page }) => {
  const form = await openAddServerForm(page);
  await expect(form.getByLabel("Worker directory")).toHaveValue("~/.trainyard");
  await expect(form.getByLabel("Worker directory")).toHaveAccessibleDescription(/Letters, digits and \/ \. _ - \+ ~/);
  await form.getByLabel("Host, port, user and key file").check();
  await expectNoSeriousAxeViolations(page);
  await expectNoHorizontalOverflow(page);

  await form.getByLabel("Display name").fill("Injected");
  await form.getByLabel("Host name or address").fill("127.0.0.1");
  await form.getByLabel("User on the server").fill("nobody");
  await form.getByLabel("Worker directory").fill("/tmp/x;rm");
  await form.getByRole("button", { name: "Add this server" }).click();
  const dir = form.getByLabel("Worker directory");
  await expect(dir).toHaveAttribute("aria-invalid", "true");
  await expect(dir).toHaveAccessibleDescription(new RegExp(SAFE_PATH_MESSAGE.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&")));
  await expect(form.getByRole("alert")).toContainText("Some fields need a change");
  await expect(page.getByRole("article").filter({ hasText: "Injected" })).toHaveCount(0);
  await expectNoSeriousAxeViolations(page);
});

