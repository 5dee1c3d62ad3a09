"use client";
import { errorText } from "@/components/ui/error-text";
import { ErrorMessage } from "@/components/ui/status-message";

type Reason = { code: string; message: string };

/** The reasons a setup cannot train (refusals) or may not be what was meant (warnings). */
export function ReadinessNotes({ refusals, warnings, error }: { refusals: Reason[]; warnings: Reason[]; error?: unknown }) {
  if (error) return <ErrorMessage>Could not check whether this can train: {errorText(error)}</ErrorMessage>;
  if (!refusals.length && !warnings.length) return null;
  return (
    <div className="flex flex-col gap-2" data-testid="readiness">
      {refusals.length > 0 && (
        <div role="alert" className="rounded-md border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-900">
          <p className="font-medium">This cannot be trained as chosen:</p>
          <ul className="list-disc pl-5">
            {refusals.map((r) => (
              <li key={r.code + r.message} data-code={r.code}>
                {r.message}
              </li>
            ))}
          </ul>
        </div>
      )}
      {warnings.map((w) => (
        <p key={w.code + w.message} data-code={w.code} className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950">
          <span className="font-medium">Check this: </span>
          {w.message}
        </p>
      ))}
    </div>
  );
}
