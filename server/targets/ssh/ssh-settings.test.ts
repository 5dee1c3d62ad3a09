import { describe, expect, it } from "vitest";
import { endpointFromSshG, workerExecCommand, ZSafeRemotePath, ZSshAlias } from "./ssh-settings";

describe("SSH settings", () => {
  it("builds the exec command from the worker directory and fixed words", () => {
    expect(workerExecCommand("/home/ana/trainyard/")).toBe("node /home/ana/trainyard/trainyard-worker.mjs control --home /home/ana/trainyard/home");
    expect(workerExecCommand("~/ty", "/home/ana/.nvm/versions/node/v20.1.0/bin/node")).toBe(
      "/home/ana/.nvm/versions/node/v20.1.0/bin/node ~/ty/trainyard-worker.mjs control --home ~/ty/home",
    );
  });

  it("refuses paths and aliases that could become shell fragments or options", () => {
    for (const bad of ["/tmp/x; rm -rf ~", "/tmp/$(id)", "relative/dir", "/tmp/a b", "/tmp/../etc", "/tmp/`id`", "/tmp/x\nid", "-oProxyCommand=x"]) {
      expect(ZSafeRemotePath.safeParse(bad).success, bad).toBe(false);
      expect(() => workerExecCommand(bad)).toThrow();
    }
    for (const bad of ["-oProxyCommand=touch", "host;id", "a b", "", "host\nid"]) expect(ZSshAlias.safeParse(bad).success, bad).toBe(false);
    expect(ZSshAlias.safeParse("gpu-box.lab").success).toBe(true);
  });

  it("reads ssh -G output, refusing jump hosts instead of ignoring them", () => {
    const out = "user ana\nhostname 10.0.0.5\nport 2222\nidentityfile ~/.ssh/id_ed25519\nidentityfile ~/.ssh/id_rsa\nproxyjump none\n";
    expect(endpointFromSshG(out)).toEqual({ host: "10.0.0.5", port: 2222, user: "ana", identityFiles: ["~/.ssh/id_ed25519", "~/.ssh/id_rsa"] });
    expect(() => endpointFromSshG(`${out.replace("proxyjump none", "proxyjump bastion")}`)).toThrow(/ProxyJump bastion/);
  });
});
