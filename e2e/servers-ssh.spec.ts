/**
 * Settings → Training computers with a real OpenSSH server on loopback (its own host and
 * client keys; the test server connects to it as the current user): add it by host,
 * port, user and key, see its unknown host key and compare the fingerprint with
 * ssh-keygen's, accept it, test access (Node found, worker not installed), Set up with
 * the plan shown first, edit, disable and enable it, make it a project's default computer
 * in the training wizard, and delete it. Desktop only (playwright.config.ts):
 * both projects share one server, and one enrollment is enough; servers.spec.ts checks
 * the form on the phone.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { startSshd, type TestSshd } from "../server/testing/sshd-harness";
import { expectNoSeriousAxeViolations } from "./axe";
import { createProject, expectNoHorizontalOverflow, openAddServerForm } from "./steps";

test.describe("an SSH server", () => {
  let sshd: TestSshd;
  let serverSide: string;
  test.beforeAll(async () => {
    sshd = await startSshd();
    serverSide = mkdtempSync(path.join(os.tmpdir(), "trainyard-e2e-remote-"));
  });
  test.afterAll(async () => {
    await sshd?.stop();
    if (serverSide) rmSync(serverSide, { recursive: true, force: true });
  });

  test("is added, its host key checked and accepted, Set up after its plan, edited, made a project's default, and deleted", async ({ page }) => {
    test.setTimeout(240_000);
    const name = `Lab ${Date.now()}`;
    const workerDir = path.join(serverSide, "worker");
    const form = await openAddServerForm(page);
    await form.getByLabel("Display name").fill(name);
    await form.getByLabel("Host, port, user and key file").check();
    await form.getByLabel("Host name or address").fill(sshd.host);
    await form.getByLabel("Port", { exact: true }).fill(String(sshd.port));
    await form.getByLabel("User on the server").fill(sshd.user);
    await form.getByLabel("Key file on this computer (optional)").fill(sshd.clientKeyPath);
    await form.getByLabel("Worker directory").fill(workerDir);
    await form.getByLabel("Path of Node (optional)").fill(process.execPath);
    await form.getByRole("button", { name: "Add this server" }).click();
    await expect(page.getByRole("status").filter({ hasText: "Server added" })).toBeVisible();

    const card = page.getByRole("article", { name });
    await expect(card).toContainText(`${sshd.user}@${sshd.host}:${sshd.port}`);
    await expect(card).toContainText(workerDir);

    // First contact: the key is unknown; its fingerprint is the one ssh-keygen computes from the server's file.
    await card.getByRole("button", { name: `Test access to ${name}` }).click();
    const keyPanel = card.getByRole("region", { name: `Check the host key of ${name}` });
    await expect(keyPanel).toBeVisible({ timeout: 60_000 });
    const fingerprint = spawnSync("ssh-keygen", ["-lf", path.join(sshd.dir, "host_key.pub")], { encoding: "utf8" }).stdout.split(" ")[1];
    expect(fingerprint).toMatch(/^SHA256:/);
    await expect(keyPanel.getByTestId("host-key-fingerprint")).toHaveText(fingerprint!);
    await expect(keyPanel).toContainText("ssh-keygen -lf /etc/ssh/ssh_host_ed25519_key.pub");
    await expectNoSeriousAxeViolations(page);
    await keyPanel.getByRole("button", { name: "Accept this key" }).click();
    await expect(keyPanel).toBeHidden();
    // Listed among the keys accepted in Trainyard, where it could be forgotten again.
    await expect(page.getByRole("list", { name: "Accepted host keys" })).toContainText(fingerprint!);

    await card.getByRole("button", { name: `Test access to ${name}` }).click();
    const report = card.getByRole("region", { name: `Access report for ${name}` });
    await expect(report).toBeVisible({ timeout: 60_000 });
    await expect(report).toContainText(`${process.version} — ok`);
    await expect(report.getByRole("definition").filter({ hasText: "not installed" })).toBeVisible();
    await expect(report.getByRole("list", { name: `Problems on ${name}` })).toContainText("Set up");

    await card.getByRole("button", { name: `Set up ${name}` }).click();
    const setup = card.getByRole("region", { name: `Set up ${name}` });
    await expect(setup).toContainText(/Installs worker \S+: \d+ files, [\d.]+ (KiB|MiB)/);
    await expect(setup).toContainText(`${sshd.user}@${sshd.host}:${sshd.port}:${workerDir}`);
    await setup.getByRole("button", { name: "Install" }).click();
    await expect(setup.getByRole("status").filter({ hasText: "Installed worker" })).toBeVisible({ timeout: 180_000 });
    // The worker there answers its probe: the same machine, so the same CPU count.
    await expect(setup).toContainText(`Its worker answered: ${os.cpus().length} CPUs`);
    await expect(card.getByRole("term").filter({ hasText: "CPUs" })).toBeVisible();

    await card.getByRole("button", { name: `Test access to ${name}` }).click();
    await expect(report.getByRole("status")).toHaveText(`${name} is ready for training.`, { timeout: 60_000 });
    await expect(report).toContainText("installed, the current version");
    await expectNoSeriousAxeViolations(page);
    await expectNoHorizontalOverflow(page);

    // Edit starts from what is stored; a rename keeps the connection.
    await card.getByRole("button", { name: `Edit ${name}` }).click();
    const edit = card.getByRole("form", { name: `Edit ${name}` });
    await expect(edit.getByLabel("Host name or address")).toHaveValue(sshd.host);
    await expect(edit.getByLabel("Worker directory")).toHaveValue(workerDir);
    const renamed = `${name} renamed`;
    await edit.getByLabel("Display name").fill(renamed);
    await edit.getByRole("button", { name: "Save changes" }).click();
    const renamedCard = page.getByRole("article", { name: renamed });
    await expect(renamedCard).toBeVisible();

    await renamedCard.getByRole("button", { name: `Disable ${renamed}` }).click();
    await expect(renamedCard.getByText("Disabled", { exact: true })).toBeVisible();
    await renamedCard.getByRole("button", { name: `Enable ${renamed}` }).click();
    await expect(renamedCard.getByText("Disabled", { exact: true })).toBeHidden();

    // The wizard offers it next to This computer and saves it as the project's default.
    const project = `Servers ${Date.now()}`;
    await createProject(page, project);
    await page.getByRole("link", { name: "Train a prediction model" }).first().click();
    await expect(page.getByRole("radio", { name: /This computer/ })).toBeChecked();
    await page.getByRole("radio", { name: renamed }).check();
    await expect(page.getByText("Data is copied to the server over SSH before training.")).toBeVisible();
    await expect(page.getByLabel("Capacity of the training computer")).toContainText("CPUs");
    await page.getByRole("button", { name: "Make this the project’s default computer" }).click();
    await expect(page.getByText("This is the project’s default computer.")).toBeVisible();
    await expectNoSeriousAxeViolations(page);
    await page.reload();
    await expect(page.getByRole("radio", { name: renamed })).toBeChecked();
    await expect(page.getByText("This is the project’s default computer.")).toBeVisible();

    await page.goto("/settings");
    await renamedCard.getByRole("button", { name: `Delete ${renamed}…` }).click();
    await renamedCard.getByRole("button", { name: `Delete ${renamed}`, exact: true }).click();
    await expect(page.getByRole("article", { name: renamed })).toHaveCount(0);
  });
});
