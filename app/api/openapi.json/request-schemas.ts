/**
 * A deployment's request bodies as JSON Schema, typed by what it serves now: a tabular
 * version's rows by its feature schema (the same rules server/deployments/predict-rows.ts
 * checks), an LLM's prompt or messages with its token limit. A body valid here is one the
 * route takes; what the schema cannot say (a date it cannot parse) is a documented 400.
 */
import type { FeatureSchemaEntry } from "@/contracts/recipes/tabular";

type Schema = Record<string, unknown>;

function cellSchema(f: FeatureSchemaEntry): Schema {
  switch (f.kind) {
    case "numeric":
      return { type: "number" };
    case "boolean":
      // true/false, or the words the training data used for them.
      return f.categories?.length ? { anyOf: [{ type: "boolean" }, { type: "string", enum: f.categories }] } : { type: "boolean" };
    case "categorical":
      return { type: ["string", "number"], ...(f.categories?.length ? { examples: f.categories.slice(0, 10) } : {}) };
    case "text":
      return { type: "string" };
    case "datetime":
      return { type: "string", format: "date-time" };
  }
}

/** Missing allowed: the training data had missing values there, or the model does not use the column. */
const mayBeMissing = (f: FeatureSchemaEntry) => f.nullable || !f.usedByModel;

function describe(f: FeatureSchemaEntry): string {
  const range = f.kind === "numeric" && f.min != null && f.max != null ? `; trained on ${f.min} to ${f.max}` : "";
  const known = f.categories?.length ? `; seen in training: ${f.categories.slice(0, 10).join(", ")}${f.categories.length > 10 || f.categoriesTruncated ? ", …" : ""}` : "";
  return `${f.kind} (${f.dtype})${range}${known}${mayBeMissing(f) ? "; may be null or left out" : ""}${f.usedByModel ? "" : "; not used by the model"}`;
}

export function rowSchema(features: FeatureSchemaEntry[]): Schema {
  return {
    type: "object",
    properties: Object.fromEntries(
      features.map((f) => {
        const cell = cellSchema(f);
        return [f.name, { ...(mayBeMissing(f) ? { anyOf: [cell, { type: "null" }] } : cell), description: describe(f), ...(f.example === null ? {} : { examples: [f.example] }) }];
      }),
    ),
    required: features.filter((f) => !mayBeMissing(f)).map((f) => f.name),
    additionalProperties: false,
  };
}

export function predictRequestSchema(features: FeatureSchemaEntry[], maxRows: number): Schema {
  return {
    type: "object",
    properties: { rows: { type: "array", items: rowSchema(features), minItems: 1, maxItems: maxRows } },
    required: ["rows"],
    additionalProperties: false,
  };
}

export function generateRequestSchema(maxNewTokens: number): Schema {
  const tokens = { type: "integer", minimum: 1, maximum: maxNewTokens, description: `New tokens to generate, at most ${maxNewTokens}` };
  const message = {
    type: "object",
    properties: { role: { type: "string", enum: ["system", "user", "assistant"] }, content: { type: "string" } },
    required: ["role", "content"],
    additionalProperties: false,
  };
  // The optional sampling fields (temperature, topP, seed, stop) are in the shared document
  // only: here Schemathesis' coverage phase would sample a full-length generation for each of
  // their boundary values (measured: its run went from 35 s to 91 s).
  return {
    oneOf: [
      { type: "object", properties: { prompt: { type: "string", minLength: 1 }, maxNewTokens: tokens }, required: ["prompt"], additionalProperties: false },
      { type: "object", properties: { messages: { type: "array", items: message, minItems: 1 }, maxNewTokens: tokens }, required: ["messages"], additionalProperties: false },
    ],
  };
}
