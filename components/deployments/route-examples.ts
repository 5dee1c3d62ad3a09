/**
 * The copyable examples of a deployment's predict route (curl and Python's standard
 * library), with the server's real URL, the key or where it goes, and one example row
 * built from the version's feature schema.
 */
import type { FeatureSchemaEntry } from "@/contracts/recipes";

export type Cell = string | number | boolean | null;
export type Row = Record<string, Cell>;

const KEY_PLACEHOLDER = "<your deployment key>";

/** A value for each feature: its training example, else a category seen in training, else null (the route accepts null where training had gaps). */
export function exampleRow(features: FeatureSchemaEntry[]): Row {
  return Object.fromEntries(
    features.map((f): [string, Cell] => {
      const example = f.example ?? f.categories?.[0] ?? (f.kind === "numeric" ? (f.min ?? null) : null);
      if (example === null || example === undefined) return [f.name, null];
      if (f.kind === "numeric" && typeof example !== "number") return [f.name, Number.isFinite(Number(example)) ? Number(example) : null];
      return [f.name, typeof example === "object" ? JSON.stringify(example) : (example as Cell)];
    }),
  );
}

export function curlExample(origin: string, predictPath: string, key: string | null, example: Row): string {
  const body = JSON.stringify({ rows: [example] });
  return [
    `curl -s -X POST '${origin}${predictPath}' \\`,
    `  -H 'Authorization: Bearer ${key ?? KEY_PLACEHOLDER}' \\`,
    `  -H 'content-type: application/json' \\`,
    `  -d '${body.replace(/'/g, "'\\''")}'`,
  ].join("\n");
}

/** A JSON value written as a Python literal (None / True / False; JSON strings are valid Python strings). */
function pythonLiteral(v: Cell): string {
  if (v === null) return "None";
  if (typeof v === "boolean") return v ? "True" : "False";
  return JSON.stringify(v);
}

export function pythonExample(origin: string, predictPath: string, key: string | null, example: Row): string {
  const row = Object.entries(example).map(([k, v]) => `    ${JSON.stringify(k)}: ${pythonLiteral(v)},`);
  return [
    "import json",
    "import urllib.request",
    "",
    "row = {",
    ...row,
    "}",
    "request = urllib.request.Request(",
    `    ${JSON.stringify(origin + predictPath)},`,
    '    data=json.dumps({"rows": [row]}).encode("utf-8"),',
    `    headers={"Authorization": ${JSON.stringify(`Bearer ${key ?? KEY_PLACEHOLDER}`)}, "content-type": "application/json"},`,
    '    method="POST",',
    ")",
    "with urllib.request.urlopen(request) as response:",
    '    print(json.load(response)["predictions"][0])',
  ].join("\n");
}
