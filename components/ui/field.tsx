import type { InputHTMLAttributes, ReactNode } from "react";

/**
 * A labelled input with its hint and its error right under it: the error is tied to the
 * input (aria-describedby, aria-invalid) so a screen reader reads it with the field.
 */
export function Field({ id, label, hint, error, ...input }: { id: string; label: string; hint?: ReactNode; error?: string } & InputHTMLAttributes<HTMLInputElement>) {
  const described = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(" ") || undefined;
  return (
    <div className="flex min-w-0 flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-800">
        {label}
      </label>
      <input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={described}
        className={`min-h-10 min-w-0 rounded-md border px-3 ${error ? "border-red-600" : "border-slate-400"}`}
        {...input}
      />
      {hint && (
        <p id={`${id}-hint`} className="text-sm text-slate-700">
          {hint}
        </p>
      )}
      {error && (
        <p id={`${id}-error`} role="alert" className="text-sm text-red-800" data-testid={`${id}-error`}>
          {error}
        </p>
      )}
    </div>
  );
}

/** A number input's value, clamped into what the schema takes (an empty box reads as `fallback`). */
export function numberFrom(v: string, fallback: number): number {
  const n = Number(v);
  return v.trim() === "" || !Number.isFinite(n) ? fallback : n;
}
