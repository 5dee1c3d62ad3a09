import { describe, expect, it } from "vitest";
import { scopeRefusal, TOKEN_SCOPES, withinScope } from "./scopes";

describe("token scopes", () => {
  it("lets an agent token through the agent tools only, and there write (the tool asks the owner's policy)", () => {
    expect(scopeRefusal("agent", "a", { write: false })?.code).toBe("agent_token");
    expect(scopeRefusal("agent", "a", { write: true })?.code).toBe("agent_token");
    expect(scopeRefusal("agent", "a", { write: false, viaAgentTools: true })).toBeNull();
    expect(scopeRefusal("agent", "a", { write: true, viaAgentTools: true })).toBeNull();
    expect(scopeRefusal("agent", "a", { write: false, credentials: true, viaAgentTools: true })?.code).toBe("owner_credentials");
  });

  it("lets a read-only token read anything, change nothing and manage no credentials", () => {
    expect(scopeRefusal("read-only", "r", { write: false })).toBeNull();
    expect(scopeRefusal("read-only", "r", { write: false, viaAgentTools: true })).toBeNull();
    expect(scopeRefusal("read-only", "r", { write: true, viaAgentTools: true })?.code).toBe("read_only_token");
    expect(scopeRefusal("read-only", "r", { write: false, credentials: true })?.code).toBe("owner_credentials");
  });

  it("keeps credentials to the admin scope", () => {
    expect(scopeRefusal("full", "f", { write: true })).toBeNull();
    expect(scopeRefusal("full", "f", { write: true, credentials: true })?.code).toBe("owner_credentials");
    expect(scopeRefusal("admin", "x", { write: true, credentials: true })).toBeNull();
  });

  it("orders scopes by what they can do: a minted token is never wider than its parent", () => {
    for (const s of TOKEN_SCOPES) {
      expect(withinScope(s, s)).toBe(true);
      expect(withinScope(s, "admin")).toBe(true);
    }
    expect(withinScope("admin", "full")).toBe(false);
    expect(withinScope("full", "agent")).toBe(false);
    expect(withinScope("agent", "read-only")).toBe(false);
    // An agent writes (through its tools) and a read-only token reads everything: neither holds the other.
    expect(withinScope("read-only", "agent")).toBe(false);
    expect(withinScope("agent", "full")).toBe(true);
    expect(withinScope("read-only", "full")).toBe(true);
  });
});
