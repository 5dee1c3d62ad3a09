/**
 * Which body MLflow's `/invocations` was sent, from its Content-Type, as MLflow's scoring
 * server decides it: `application/json` or `text/csv`, with no parameter but
 * `charset=utf-8`. MLflow answers anything else 415; here it is a 400 BAD_REQUEST like every
 * other body MLflow's clients could not have meant, so one error shape covers them all.
 */
import { badInput } from "@/server/errors";

export type ScoringFormat = "json" | "csv";

const FORMATS: Record<string, ScoringFormat> = { "application/json": "json", "text/csv": "csv" };

export function scoringFormat(contentType: string | null): ScoringFormat {
  const [mime = "", ...params] = (contentType ?? "").split(";").map((p) => p.trim());
  const format = FORMATS[mime.toLowerCase()];
  if (!format) {
    throw badInput(`/invocations takes Content-Type application/json or text/csv (got ${contentType ? `"${contentType}"` : "none"}).`, { code: "unsupported_content_type", fields: [{ path: "Content-Type", message: "application/json or text/csv is expected" }] });
  }
  for (const p of params.filter(Boolean)) {
    const [name = "", value = ""] = p.split("=").map((s) => s.trim());
    const ok = name.toLowerCase() === "charset" && value.replace(/^"|"$/g, "").toLowerCase() === "utf-8";
    if (!ok) throw badInput(`/invocations reads UTF-8 only, with no other Content-Type parameter (got "${p}").`, { code: "unsupported_content_type", fields: [{ path: "Content-Type", message: "only charset=utf-8 may follow the type" }] });
  }
  return format;
}
