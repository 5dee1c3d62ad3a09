import type { InputHTMLAttributes, ReactNode } from "react";
import { Field } from "@/components/ui/field";

/** The shared labelled field (components/ui/field.tsx) with a string value and setter. */
export function TextField({
  onChange,
  ...rest
}: { id: string; label: string; hint?: ReactNode; value: string; onChange: (v: string) => void } & Omit<InputHTMLAttributes<HTMLInputElement>, "id" | "value" | "onChange">) {
  return <Field {...rest} onChange={(e) => onChange(e.target.value)} />;
}

/** A whole-number field (caps, rows, seconds): the phone shows its number pad. */
export function NumberField(props: Parameters<typeof TextField>[0]) {
  return <TextField type="number" inputMode="decimal" min={0} step="any" {...props} />;
}
