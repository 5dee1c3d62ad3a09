import { describe, expect, it } from "vitest";
import { killUserProcessesOf, sessionWarning } from "./session-check";

describe("logout and KillUserProcesses", () => {
  it("reads the [Login] setting, later drop-ins winning, comments ignored", () => {
    expect(killUserProcessesOf(["[Login]\n#KillUserProcesses=yes\n"])).toBeNull();
    expect(killUserProcessesOf(["[Login]\nKillUserProcesses=yes\n"])).toBe(true);
    expect(killUserProcessesOf(["[Login]\nKillUserProcesses=yes\n", "[Login]\nKillUserProcesses=no\n"])).toBe(false);
    expect(killUserProcessesOf(["[Other]\nKillUserProcesses=yes\n"])).toBeNull();
  });

  it("warns only when processes die at logout and lingering is off", () => {
    const base = { systemd: true, killUserProcesses: true, linger: false, user: "ana" };
    expect(sessionWarning(base)).toMatch(/loginctl enable-linger ana/);
    expect(sessionWarning({ ...base, linger: true })).toBeNull();
    expect(sessionWarning({ ...base, killUserProcesses: null })).toBeNull();
    expect(sessionWarning({ ...base, systemd: false })).toBeNull();
  });
});
