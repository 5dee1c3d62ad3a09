import { describe, expect, it } from "vitest";
import * as lifecycles from "./index";
import type { Lifecycle } from "./define";

const all = Object.entries(lifecycles).filter(([, v]) => typeof v === "object" && v !== null && "transitions" in v) as [
  string,
  Lifecycle<string, string>,
][];

describe("every lifecycle table", () => {
  it("is exported: jobs (worker and controller), experiment, dataset, check, split, model version, deployment, monitor and its health policy, search, trial, schedule, promotion candidate", () => {
    expect(all.map(([k]) => k).sort()).toEqual(
      [
        "checkLifecycle",
        "controllerJobLifecycle",
        "datasetLifecycle",
        "deploymentLifecycle",
        "experimentLifecycle",
        "healthPolicyLifecycle",
        "modelVersionLifecycle",
        "monitorLifecycle",
        "promotionCandidateLifecycle",
        "scheduleLifecycle",
        "searchLifecycle",
        "splitLifecycle",
        "trialLifecycle",
        "workerJobLifecycle",
      ].sort(),
    );
  });

  it.each(all)("%s: a terminal state never moves and every other state has somewhere to go", (_k, l) => {
    for (const t of l.terminal) for (const s of l.states) expect(l.canMove(t, s)).toBe(false);
    for (const s of l.active) expect(l.states.some((to) => l.canMove(s, to))).toBe(true);
  });

  it("the controller allows every move the worker makes (it may see each step)", () => {
    const { workerJobLifecycle: w, controllerJobLifecycle: c } = lifecycles;
    for (const from of w.states) for (const to of w.transitions[from]) expect(c.canMove(from, to), `${from} → ${to}`).toBe(true);
  });

  it("the deployment lifecycle is the one issue 16 names: loading → ready → switching → stopping → stopped, plus failed and idle", () => {
    const d = lifecycles.deploymentLifecycle;
    expect(d.states).toEqual(["loading", "ready", "switching", "idle", "stopping", "stopped", "failed"]);
    const path = ["loading", "ready", "switching", "ready", "idle", "loading", "ready", "idle", "switching", "idle", "stopping", "stopped", "loading"];
    for (const [from, to] of path.slice(1).map((to, i) => [path[i]!, to] as const)) expect(d.canMove(from, to), `${from} → ${to}`).toBe(true);
    expect(d.canMove("stopped", "ready")).toBe(false);
    // An idle deployment has no process to answer with: it loads (loading) before it is ready.
    expect(d.canMove("idle", "ready")).toBe(false);
  });
});
