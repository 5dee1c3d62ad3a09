// Every tRPC procedure's input, read from the router itself (a new procedure is covered
// without editing this test): an unknown top-level field is refused with an issue naming
// it, and every object schema nested anywhere in the input is strict too.
import { describe, expect, it } from "vitest";
import { z, type ZodType } from "zod";
import { appRouter } from "./root";

const UNKNOWN = "notAField";

interface ProcedureDef {
  inputs: unknown[];
}
const procedures = Object.entries(appRouter._def.procedures as unknown as Record<string, { _def: ProcedureDef }>).map(
  ([name, p]) => [name, p._def.inputs as ZodType[]] as const,
);

type Def = { type: string; [k: string]: unknown };
const defOf = (s: unknown): Def => (s as { _zod: { def: Def } })._zod.def;

/** Paths of object schemas under `schema` that let unknown keys through. */
function lenientObjects(schema: unknown, at = "input", seen = new Set<unknown>()): string[] {
  if (seen.has(schema)) return [];
  seen.add(schema);
  const def = defOf(schema);
  const walk = (child: unknown, where: string) => (child ? lenientObjects(child, where, seen) : []);
  switch (def.type) {
    case "object": {
      const own = defOf(def.catchall ?? z.unknown()).type === "never" ? [] : [at];
      const shape = def.shape as Record<string, unknown>;
      return [...own, ...Object.entries(shape).flatMap(([k, v]) => walk(v, `${at}.${k}`))];
    }
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "nonoptional":
    case "readonly":
    case "catch":
      return walk(def.innerType, at);
    case "array":
      return walk(def.element, `${at}[]`);
    case "union":
      return (def.options as unknown[]).flatMap((o, i) => walk(o, `${at}|${i}`));
    case "intersection":
      return [...walk(def.left, at), ...walk(def.right, at)];
    case "pipe":
      return [...walk(def.in, at), ...walk(def.out, at)];
    case "record":
      return walk(def.valueType, `${at}{}`);
    case "tuple":
      return [...(def.items as unknown[]).flatMap((s, i) => walk(s, `${at}[${i}]`)), ...walk(def.rest, `${at}[]`)];
    case "lazy":
      return walk((def.getter as () => unknown)(), at);
    default:
      return [];
  }
}

describe("API input schemas", () => {
  it("the router has procedures with inputs to check", () => {
    expect(procedures.filter(([, inputs]) => inputs.length > 0).length).toBeGreaterThan(30);
  });

  it("the walker finds a lenient object however deeply it is nested", () => {
    const nested = z.strictObject({ a: z.array(z.strictObject({ b: z.object({ c: z.string() }).optional() })) });
    expect(lenientObjects(nested)).toEqual(["input.a[].b"]);
    expect(lenientObjects(z.strictObject({ a: z.string() }))).toEqual([]);
  });

  for (const [name, inputs] of procedures) {
    if (inputs.length === 0) continue;
    it(`${name} refuses an unknown field, naming it, at every level`, () => {
      for (const input of inputs) {
        const parsed = input.safeParse({ [UNKNOWN]: 1 });
        expect(parsed.success).toBe(false);
        const issue = parsed.error!.issues.find((i) => i.code === "unrecognized_keys");
        expect(issue, JSON.stringify(parsed.error!.issues)).toBeDefined();
        expect(issue!.message).toContain(UNKNOWN);
        expect(lenientObjects(input)).toEqual([]);
      }
    });
  }
});
