// The agents' policy on a real SQLite file: off by default, the owner turns it on, a token
// (even a full-access one) cannot, and a stale revision changes nothing.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Principal } from "@/server/auth/principal";
import type { Db } from "@/server/db/client";
import { openTestDb } from "@/server/testing/test-db";
import { agentPolicyView, updateAgentPolicy } from "./agent-policy";

let db: Db;
let close: () => Promise<void>;
beforeAll(async () => {
  ({ db, close } = await openTestDb());
});
afterAll(async () => close?.());

const owner: Principal = { kind: "owner", sessionId: "s1" };
const writer: Principal = { kind: "token", tokenId: "t1", name: "agent", scope: "full" };
const reader: Principal = { kind: "token", tokenId: "t2", name: "reader", scope: "read-only" };

describe("agents' policy", () => {
  it("is off by default, and says what each caller may do", async () => {
    expect(await agentPolicyView(writer, db)).toEqual({ values: { mayPromote: false }, revision: 0, defaults: { mayPromote: false }, caller: { mayWrite: true, mayPromote: false } });
    expect((await agentPolicyView(reader, db)).caller).toEqual({ mayWrite: false, mayPromote: false });
  });

  it("refuses a token that tries to turn promotion on for itself, read-only or not", async () => {
    for (const p of [writer, reader]) {
      await expect(updateAgentPolicy({ values: { mayPromote: true }, revision: 0 }, p, db)).rejects.toMatchObject({ code: "FORBIDDEN", details: { code: "owner_only" } });
    }
    expect((await agentPolicyView(owner, db)).values.mayPromote).toBe(false);
  });

  it("lets the owner turn it on from the revision they read, and refuses a stale revision", async () => {
    const on = await updateAgentPolicy({ values: { mayPromote: true }, revision: 0 }, owner, db);
    expect(on).toMatchObject({ values: { mayPromote: true }, revision: 1 });
    expect((await agentPolicyView(writer, db)).caller).toEqual({ mayWrite: true, mayPromote: true });
    // A read-only token never promotes, whatever the policy.
    expect((await agentPolicyView(reader, db)).caller.mayPromote).toBe(false);
    await expect(updateAgentPolicy({ values: { mayPromote: false }, revision: 0 }, owner, db)).rejects.toMatchObject({ code: "CONFLICT" });
    const off = await updateAgentPolicy({ values: { mayPromote: false }, revision: 1 }, { kind: "open" }, db);
    expect(off).toMatchObject({ values: { mayPromote: false }, revision: 2 });
  });
});
