import { describe, expect, it } from "vitest";
import { ZAddServerInput } from "./ssh-target.schema";

const manual = { mode: "manual" as const, host: "gpu-1.lan", port: 22, user: "ana", keyPath: "~/.ssh/id_ed25519" };

describe("adding a server: what is accepted", () => {
  it("fills the worker directory and treats an empty Node path as none", () => {
    expect(ZAddServerInput.parse({ name: " Lab ", connection: manual, nodePath: "" })).toMatchObject({ name: "Lab", workerDir: "~/.trainyard", nodePath: null });
    expect(ZAddServerInput.parse({ name: "Lab", connection: { mode: "alias", alias: "gpu-box" }, nodePath: "~/.nvm/versions/node/v20.11.0/bin/node" }).nodePath).toBe(
      "~/.nvm/versions/node/v20.11.0/bin/node",
    );
  });

  it("parses its own output again unchanged (forms and routers both call it)", () => {
    const once = ZAddServerInput.parse({ name: "Lab", connection: manual });
    expect(ZAddServerInput.parse(once)).toEqual(once);
  });

  it.each([
    ["a shell fragment in the worker directory", { workerDir: "/srv/x; rm -rf ~" }],
    ["a command substitution", { workerDir: "~/$(id)" }],
    ["a relative worker directory", { workerDir: "trainyard" }],
    ["a parent step", { workerDir: "/srv/../etc" }],
    ["an option as the Node path", { nodePath: "-e" }],
    ["spaces in the Node path", { nodePath: "/usr/bin/node --eval x" }],
    ["an option as the alias", { connection: { mode: "alias", alias: "-oProxyCommand=id" } }],
    ["an option in the host", { connection: { ...manual, host: "h -oProxyCommand=id" } }],
    ["a shell word in the user", { connection: { ...manual, user: "ana;id" } }],
    ["a relative key path", { connection: { ...manual, keyPath: "id_rsa" } }],
    ["a port out of range", { connection: { ...manual, port: 70000 } }],
  ])("refuses %s", (_what, patch) => {
    expect(ZAddServerInput.safeParse({ name: "Lab", connection: manual, ...patch }).success).toBe(false);
  });
});
