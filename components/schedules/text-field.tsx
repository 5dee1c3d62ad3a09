import type { InputHTMLAttributes, ReactNode } from "react";

/** A labelled input, label over it, with an optional hint the input is described by. */
export function TextField({
  id,
  label,
  hint,
  value,
  onChange,
  ...rest
}: { id: string; label: string; hint?: ReactNode; value: string; onChange: (v: string) => void } & Omit<InputHTMLAttributes<HTMLInputElement>, "id" | "value" | "onChange">) {
  return (
    <div className="flex min-w-0 flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium text-slate-800">
        {label}
      </label>
      <input
        id={id}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-describedby={hint ? `${id}-hint` : undefined}
        className="min-h-10 w-full min-w-0 rounded-md border border-slate-400 bg-white px-3 py-2 text-sm"
        {...rest}
      />
      {hint && (
        <p id={`${id}-hint`} className="text-sm text-slate-700">
          {hint}
        </p>
      )}
    </div>
  );
}

/** A whole-number field (caps, rows, seconds): the phone shows its number pad. */
export function NumberField(props: Parameters<typeof TextField>[0]) {
  return <TextField type="number" inputMode="decimal" min={0} step="any" {...props} />;
}
