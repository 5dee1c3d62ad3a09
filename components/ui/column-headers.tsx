import type { ReactNode } from "react";

/** A data table's header row: one column header per name. */
export function ColumnHeaders({ names, cellClassName = "px-2 py-1" }: { names: readonly ReactNode[]; cellClassName?: string }) {
  return (
    <thead className="bg-slate-100">
      <tr>
        {names.map((name, i) => (
          <th key={i} scope="col" className={cellClassName}>
            {name}
          </th>
        ))}
      </tr>
    </thead>
  );
}
