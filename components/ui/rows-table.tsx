import { ColumnHeaders } from "./column-headers";

/** A scrollable, keyboard-reachable table of raw rows (a file's first lines). */
export function RowsTable({
  header,
  rows,
  label,
  caption,
  testId,
}: {
  header: string[];
  rows: string[][];
  label: string;
  caption?: string;
  testId?: string;
}) {
  return (
    <div className="relative max-w-full overflow-x-auto rounded-md border border-slate-200 bg-white" tabIndex={0} role="region" aria-label={label}>
      <table className="min-w-full text-left text-xs" data-testid={testId}>
        {caption && <caption className="sr-only">{caption}</caption>}
        <ColumnHeaders names={header} cellClassName="whitespace-nowrap px-2 py-1 font-semibold" />
        <tbody>
          {rows.map((r, i) => (
            <tr key={i} className="border-t border-slate-100">
              {r.map((c, j) => (
                <td key={j} className="whitespace-nowrap px-2 py-1">
                  {c}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
