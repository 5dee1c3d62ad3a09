import { expect, it } from "vitest";
import { upgradeFrom } from "./migration-test-support";

const MIGRATION = "20261205140000_token_scopes";

it("upgrading turns a read-only token into the read-only scope and every other into full, keeping them usable", async () => {
  const { heldBack, applied, after } = await upgradeFrom(
    MIGRATION,
    (db) => {
      const insert = db.prepare(`INSERT INTO ApiToken (id, name, prefix, tokenHash, readOnly) VALUES (?, ?, ?, ?, ?)`);
      insert.run("t1", "reader", "tyt_aaaaaa", "hash-1", 1);
      insert.run("t2", "script", "tyt_bbbbbb", "hash-2", 0);
    },
    (db) => ({
      rows: db.prepare("SELECT id, name, scope, parentId FROM ApiToken ORDER BY id").all(),
      columns: (db.prepare("PRAGMA table_info(ApiToken)").all() as { name: string }[]).map((c) => c.name),
    }),
  );
  expect(applied).toEqual(heldBack);
  const { rows, columns } = after;
  expect(rows).toEqual([
    { id: "t1", name: "reader", scope: "read-only", parentId: null },
    { id: "t2", name: "script", scope: "full", parentId: null },
  ]);
  expect(columns).not.toContain("readOnly");
});
