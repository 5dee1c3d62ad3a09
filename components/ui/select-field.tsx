/** A labelled drop-down, label stacked over it; call sites list their options as data, not markup. */
export function SelectField<V extends string>({
  id,
  label,
  value,
  onChange,
  options,
  placeholder,
  className = "",
}: {
  id: string;
  label: string;
  value: V | "";
  onChange: (value: V) => void;
  options: readonly (readonly [value: V, label: string])[];
  /** A first, empty choice ("" as its value), e.g. "Choose a column…". */
  placeholder?: string;
  className?: string;
}) {
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <select id={id} className={`min-h-10 rounded-md border border-slate-400 bg-white px-2${className ? ` ${className}` : ""}`} value={value} onChange={(e) => onChange(e.target.value as V)}>
        {placeholder !== undefined && <option value="">{placeholder}</option>}
        {options.map(([v, text]) => (
          <option key={v} value={v}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}

/** Options whose value is also their label. */
export const sameLabel = <V extends string>(values: readonly V[]) => values.map((v) => [v, v] as const);
