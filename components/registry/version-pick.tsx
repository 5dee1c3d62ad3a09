"use client";

/** One of a model's versions, chosen in a labelled select (compare, compare on the holdout). */
export function VersionPick({ label, value, numbers, onChange }: { label: string; value: number; numbers: number[]; onChange: (n: number) => void }) {
  return (
    <label className="flex items-center gap-2">
      <span>{label}</span>
      <select value={value} onChange={(e) => onChange(Number(e.target.value))} className="min-h-10 rounded-md border border-slate-400 bg-white px-2">
        {numbers.map((n) => (
          <option key={n} value={n}>
            Version {n}
          </option>
        ))}
      </select>
    </label>
  );
}
