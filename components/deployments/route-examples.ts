/**
 * The copyable examples of a deployment's routes (curl and Python's standard library), with
 * the server's real URL and the key or where it goes: predict with one example row built
 * from the version's feature schema, and a language model's stream with one prompt.
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

function curlFor(origin: string, routePath: string, key: string | null, body: unknown, stream: boolean): string {
  return [
    `curl ${stream ? "-N" : "-s"} -X POST '${origin}${routePath}' \\`,
    `  -H 'Authorization: Bearer ${key ?? KEY_PLACEHOLDER}' \\`,
    `  -H 'content-type: application/json' \\`,
    `  -d '${JSON.stringify(body).replace(/'/g, "'\\''")}'`,
  ].join("\n");
}

export function curlExample(origin: string, predictPath: string, key: string | null, example: Row): string {
  return curlFor(origin, predictPath, key, { rows: [example] }, false);
}

/** MLflow's scoring protocol (`/invocations`) with the row as pandas' `to_json(orient="split")` writes it: columns, then the row's values. */
export function curlInvocationsExample(origin: string, invocationsPath: string, key: string | null, example: Row): string {
  return curlFor(origin, invocationsPath, key, { dataframe_split: { columns: Object.keys(example), data: [Object.values(example)] } }, false);
}

/** The body of the stream examples: one user message, a short answer. */
export const STREAM_EXAMPLE = { prompt: "What is 2 + 3?", maxNewTokens: 64 };

/** curl -N prints each event as it arrives. */
export function curlStreamExample(origin: string, streamPath: string, key: string | null): string {
  return curlFor(origin, streamPath, key, STREAM_EXAMPLE, true);
}

/** Prints the answer's text as its deltas arrive, and stops on an error event. */
export function pythonStreamExample(origin: string, streamPath: string, key: string | null): string {
  return [
    "import json",
    "import urllib.request",
    "",
    "request = urllib.request.Request(",
    `    ${JSON.stringify(origin + streamPath)},`,
    `    data=json.dumps(${JSON.stringify(STREAM_EXAMPLE)}).encode("utf-8"),`,
    `    headers={"Authorization": ${JSON.stringify(`Bearer ${key ?? KEY_PLACEHOLDER}`)}, "content-type": "application/json"},`,
    '    method="POST",',
    ")",
    "event = None",
    "with urllib.request.urlopen(request) as response:",
    "    for raw in response:",
    '        line = raw.decode("utf-8").rstrip("\\n")',
    '        if line.startswith("event: "):',
    "            event = line[len(\"event: \"):]",
    '        elif line.startswith("data: ") and event == "delta":',
    '            print(json.loads(line[len("data: "):])["text"], end="", flush=True)',
    '        elif line.startswith("data: ") and event == "error":',
    '            raise SystemExit(json.loads(line[len("data: "):])["message"])',
    "print()",
  ].join("\n");
}

/**
 * The openai Python client on the deployment's OpenAI-compatible routes (`basePath`:
 * /api/deployments/<id>/v1) as its base URL with the key as its API key. The model is read
 * from /v1/models (the deployment's name), so the example holds after a rename of nothing.
 */
export function pythonOpenAiExample(origin: string, basePath: string, key: string | null): string {
  return [
    "# pip install openai",
    "from openai import OpenAI",
    "",
    `client = OpenAI(base_url=${JSON.stringify(origin + basePath)}, api_key=${JSON.stringify(key ?? KEY_PLACEHOLDER)})`,
    "model = client.models.list().data[0].id  # the deployment's name",
    "stream = client.chat.completions.create(",
    "    model=model,",
    `    messages=[{"role": "user", "content": ${JSON.stringify(STREAM_EXAMPLE.prompt)}}],`,
    `    max_tokens=${STREAM_EXAMPLE.maxNewTokens},`,
    "    stream=True,",
    ")",
    "for chunk in stream:",
    "    if chunk.choices:",
    '        print(chunk.choices[0].delta.content or "", end="", flush=True)',
    "print()",
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
