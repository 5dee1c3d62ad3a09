const ROLE: Record<string, string> = { system: "System", user: "User", assistant: "Assistant" };
const TONE: Record<string, string> = { system: "bg-slate-100", user: "bg-blue-50", assistant: "bg-green-50" };

/** Examples as conversations (every format is normalised to messages), each with its line in the file. */
export function Conversations({ examples, label }: { examples: { line?: number; messages: { role: string; content: string }[] }[]; label: string }) {
  if (!examples.length) return <p className="text-sm text-slate-700">No example to show.</p>;
  return (
    <ol className="flex flex-col gap-3" aria-label={label}>
      {examples.map((ex, i) => (
        <li key={ex.line ?? i} className="flex flex-col gap-1 rounded-md border border-slate-200 p-2" data-testid="conversation">
          {ex.line !== undefined && <span className="text-xs text-slate-600">Line {ex.line}</span>}
          {ex.messages.map((m, j) => (
            <p key={j} className={`whitespace-pre-wrap break-words rounded px-2 py-1 text-sm ${TONE[m.role] ?? TONE.system}`}>
              <span className="font-medium">{ROLE[m.role] ?? m.role}: </span>
              {m.content}
            </p>
          ))}
        </li>
      ))}
    </ol>
  );
}
