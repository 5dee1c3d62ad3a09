/** Answers next to each other (stacked on a phone): a reference, the base model, the adapter. */
export function SideBySide({ answers, columns }: { answers: readonly (readonly [title: string, text: string, tone: string])[]; columns: "md:grid-cols-2" | "md:grid-cols-3" }) {
  return (
    <div className={`grid gap-2 ${columns}`}>
      {answers.map(([title, text, tone]) => (
        <div key={title} className={`min-w-0 rounded-md border border-slate-200 p-2 ${tone}`}>
          <p className="text-xs font-medium text-slate-700">{title}</p>
          <p className="whitespace-pre-wrap break-words text-sm">{text || "(empty)"}</p>
        </div>
      ))}
    </div>
  );
}
