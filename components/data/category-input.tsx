"use client";
import type { InputHTMLAttributes } from "react";

/**
 * A category typed as text with the values seen in training as suggestions: for a column with
 * more values than the feature schema lists (it keeps the 50 most common), where a dropdown
 * could not take the row's own value.
 */
export function CategoryInput({ categories, onChange, ...input }: { categories: readonly string[]; onChange: (v: string) => void; id: string } & Omit<InputHTMLAttributes<HTMLInputElement>, "onChange" | "list" | "id">) {
  const listId = `${input.id}-seen`;
  return (
    <>
      <input {...input} type="text" list={listId} autoComplete="off" onChange={(e) => onChange(e.target.value)} />
      <datalist id={listId}>
        {categories.map((c) => (
          <option key={c} value={c} />
        ))}
      </datalist>
    </>
  );
}
