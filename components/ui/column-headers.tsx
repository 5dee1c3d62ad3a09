import type { ReactNode } from "react";

/** A data table's header row: one column header per name. */
export function ColumnHeaders({ names }: { names: readonly ReactNode[] }) {
  return (
    <thead className="bg-slate-100">
      <tr>
        {names.map((name, i) => (
          <th key={i} scope="col" className="px-2 py-1">
            {name}
          </th>
        ))}
      </tr>
    </thead>
  );
}
