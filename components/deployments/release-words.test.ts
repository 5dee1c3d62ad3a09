import { describe, expect, it } from "vitest";
import { changeWords, effectWords, idleWords, isRollbackTarget, nextReleaseNumber, rollbackTarget, switchableVersions } from "./release-words";

const release = (number: number, version: number) => ({ number, version });
// Newest first, as deployments.show gives them: 1 → v1, 2 → v2, 3 → v2 again (an alias re-pointed), 4 → v3.
const history = [release(4, 3), release(3, 2), release(2, 2), release(1, 1)];
const served = { release: release(4, 3) };
const version = (number: number, status: "registered" | "removed" | "export_missing" = "registered", recipe = "tabular") => ({ number, status, identity: { recipe }, aliases: [] });

describe("what a rollback returns to", () => {
  it("is the latest earlier release of another version, as the server's default", () => {
    expect(rollbackTarget(history, served)).toEqual(release(3, 2));
    expect(rollbackTarget(history, { release: release(3, 2) })).toEqual(release(1, 1));
  });

  it("is nothing on a first release, or when every earlier release served the same version", () => {
    expect(rollbackTarget([release(1, 1)], { release: release(1, 1) })).toBeNull();
    expect(rollbackTarget([release(2, 1), release(1, 1)], { release: release(2, 1) })).toBeNull();
    expect(rollbackTarget(history, { release: null })).toBeNull();
  });

  it("offers only earlier releases of another version from the history", () => {
    expect(history.filter((r) => isRollbackTarget(r, served)).map((r) => r.number)).toEqual([3, 2, 1]);
    expect(history.filter((r) => isRollbackTarget(r, { release: release(3, 2) })).map((r) => r.number)).toEqual([1]);
  });
});

describe("what a switch may pick", () => {
  it("is the other registered versions of the kind the deployment serves, newest first", () => {
    const versions = [version(5, "registered", "lora"), version(4, "removed"), version(3), version(2, "export_missing"), version(1)];
    expect(switchableVersions(versions, { ...served, kind: "tabular" }).map((v) => v.number)).toEqual([1]);
    expect(switchableVersions(versions, { ...served, kind: "llm" }).map((v) => v.number)).toEqual([5]);
  });
});

describe("the confirmation's words", () => {
  it("says from which release to which version, as which release", () => {
    expect(changeWords({ ...served, name: "penguins" }, { version: 1 }, nextReleaseNumber(history))).toBe('Switch "penguins" from release 4 (version 3) to version 1, as release 5.');
    expect(changeWords({ ...served, name: "penguins" }, { version: 2, backTo: 3 }, 5)).toBe('Roll back "penguins" from release 4 (version 3) to version 2 (back to release 3), as release 5.');
    expect(nextReleaseNumber([])).toBe(1);
  });

  it("says the next request uses the new version on demand, and pinning ends following an alias", () => {
    const onDemand = { ...served, mode: "on_demand", state: "ready", followsAlias: "selected", switchRoom: null } as const;
    expect(effectWords(onDemand, 2)).toEqual({ words: "On demand, nothing is loaded: the next request uses version 2. It is then pinned to version 2: it stops following “selected”.", downtime: false });
  });

  it("gives a resident deployment's switch room, a downtime as a warning, and an idle one loads without unloading", () => {
    const resident = { ...served, mode: "resident", state: "ready", followsAlias: null } as const;
    expect(effectWords({ ...resident, switchRoom: { kind: "downtime", detail: "No room for both." } }, 2)).toEqual({ words: "No room for both.", downtime: true });
    expect(effectWords({ ...resident, switchRoom: { kind: "overlap", detail: "Room for both." } }, 2)).toEqual({ words: "Room for both.", downtime: false });
    expect(effectWords({ ...resident, state: "idle", switchRoom: { kind: "downtime", detail: "No room for both." } }, 2).downtime).toBe(false);
  });

  it("names the idle time in minutes, or seconds under a minute", () => {
    expect(idleWords(null)).toBeNull();
    expect(idleWords(15)).toMatch(/^Unloads after 15 min without a request;/);
    expect(idleWords(0.1)).toMatch(/^Unloads after 6 s without a request;/);
  });
});
