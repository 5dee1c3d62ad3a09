import { mkdtempSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { knownHostsFilesFromSshG, resolveAlias } from "./resolve-alias";

describe("host aliases through ssh -G", () => {
  it("reads the known_hosts files the config names", () => {
    expect(knownHostsFilesFromSshG("userknownhostsfile ~/.ssh/known_hosts ~/.ssh/known_hosts2\nglobalknownhostsfile /etc/ssh/ssh_known_hosts\n")).toEqual([
      "~/.ssh/known_hosts",
      "~/.ssh/known_hosts2",
      "/etc/ssh/ssh_known_hosts",
    ]);
  });

  it("applies the user's whole config (the real OpenSSH client)", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "sshcfg-"));
    const cfg = path.join(dir, "config");
    writeFileSync(cfg, ["Host gpu-*", "  User trainer", "  Port 2222", "Host gpu-1", "  HostName 192.0.2.10", "  IdentityFile ~/.ssh/lab_key", ""].join("\n"));
    const r = await resolveAlias("gpu-1", cfg);
    expect(r.endpoint).toMatchObject({ host: "192.0.2.10", port: 2222, user: "trainer" });
    expect(r.endpoint.identityFiles).toContain("~/.ssh/lab_key");
  });

  it("refuses an alias that is an option, before running anything", async () => {
    await expect(resolveAlias("-oProxyCommand=id")).rejects.toThrow(/alias/);
  });
});
