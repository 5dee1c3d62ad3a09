/** Confusion matrix as an accessible table (rows: actual, columns: predicted), shaded by share of the row. */
export function ConfusionMatrix({ labels, matrix }: { labels: string[]; matrix: number[][] }) {
  return (
    <div className="max-w-full overflow-x-auto" role="region" aria-label="Confusion matrix table" tabIndex={0}>
      <table className="text-sm">
        <caption className="mb-1 text-left text-sm text-slate-700">Rows: actual class · columns: predicted class (test rows)</caption>
        <thead>
          <tr>
            <th scope="col" className="px-2 py-1 text-left">Actual ↓ / predicted →</th>
            {labels.map((l) => (
              <th key={l} scope="col" className="px-2 py-1">
                {l}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {matrix.map((row, i) => {
            const total = row.reduce((a, b) => a + b, 0) || 1;
            return (
              <tr key={labels[i]}>
                <th scope="row" className="px-2 py-1 text-left">
                  {labels[i]}
                </th>
                {row.map((n, j) => {
                  const share = n / total;
                  const dark = share > 0.55;
                  return (
                    <td
                      key={j}
                      className={`px-3 py-2 text-center tabular-nums ${dark ? "text-white" : "text-slate-900"} ${i === j ? "font-semibold" : ""}`}
                      style={{ backgroundColor: i === j ? `rgba(29, 78, 216, ${0.08 + share * 0.87})` : `rgba(185, 28, 28, ${0.05 + share * 0.85})` }}
                    >
                      {n}
                    </td>
                  );
                })}
              </tr>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
