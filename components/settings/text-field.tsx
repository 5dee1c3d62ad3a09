import type { InputHTMLAttributes, ReactNode } from "react";

export const FIELD_CLASS = "min-h-10 w-full rounded-md border border-slate-400 px-3 py-2 text-sm";

/**
 * A labelled input with an optional hint and error, both tied to it with
 * aria-describedby so a screen reader reads them with the field.
 */
export function TextField({
  id,
  label,
  hint,
  error,
  ...input
}: { id: string; label: string; hint?: ReactNode; error?: string } & InputHTMLAttributes<HTMLInputElement>) {
  const describedBy = [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].filter(Boolean).join(" ") || undefined;
  return (
    <div className="flex min-w-0 flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-800">
        {label}
      </label>
      <input id={id} aria-describedby={describedBy} aria-invalid={error ? true : undefined} className={FIELD_CLASS} {...input} />
      {hint && (
        <p id={`${id}-hint`} className="text-xs text-slate-700">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} className="text-sm text-red-800">
          {error}
        </p>
      )}
    </div>
  );
}

/** Zod issues the server sent back, keyed by their input path ("connection.host"). */
export function fieldErrors(err: unknown): Record<string, string> {
  const issues = (err as { data?: { zodIssues?: { path: (string | number)[]; message: string }[] | null } } | null)?.data?.zodIssues ?? [];
  const out: Record<string, string> = {};
  for (const i of issues) out[i.path.join(".")] ??= i.message;
  return out;
}
