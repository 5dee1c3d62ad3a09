/** Named facts as a two-column list (stacked on a phone): a review, the preflight, the data checks. */
export function FactList({ rows, label, className = "" }: { rows: readonly (readonly [string, string])[]; label: string; className?: string }) {
  return (
    <dl className={`grid grid-cols-1 gap-x-4 gap-y-2 sm:grid-cols-[max-content_1fr] ${className}`} aria-label={label}>
      {rows.map(([k, v]) => (
        <div key={k} className="contents">
          <dt className="text-sm font-medium text-slate-700">{k}</dt>
          <dd className="break-words text-sm text-slate-900">{v}</dd>
        </div>
      ))}
    </dl>
  );
}
