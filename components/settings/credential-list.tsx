import type { ReactNode } from "react";

/**
 * The list of things that let someone in (API tokens, signed-in browsers): a line when
 * there are none, else one row each with what it is, its dates and an action to end it.
 */
export function CredentialList<T extends { id: string }>({
  label,
  items,
  empty,
  row,
}: {
  label: string;
  items: readonly T[] | undefined;
  empty: string;
  row: (item: T) => { title: ReactNode; dates: ReactNode; action: ReactNode };
}) {
  if (!items) return null;
  if (items.length === 0) return <p className="text-sm text-slate-700">{empty}</p>;
  return (
    <ul className="flex flex-col gap-2" aria-label={label}>
      {items.map((item) => {
        const r = row(item);
        return (
          <li key={item.id} className="flex flex-col gap-1 border-t border-slate-100 pt-2 text-sm sm:flex-row sm:items-center sm:justify-between">
            <div className="min-w-0">
              <p className="font-medium">{r.title}</p>
              <p className="text-slate-700">{r.dates}</p>
            </div>
            {r.action}
          </li>
        );
      })}
    </ul>
  );
}
