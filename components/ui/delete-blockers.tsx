/** What stands in the way of a delete, in the words its preview gave; nothing when nothing does. */
export function DeleteBlockers({ blockers }: { blockers: { kind: string; id: string; label: string }[] }) {
  if (blockers.length === 0) return null;
  return (
    <div className="text-sm text-red-800">
      <p>It cannot be deleted now:</p>
      <ul className="list-disc pl-5">
        {blockers.map((b) => (
          <li key={`${b.kind}-${b.id}`}>{b.label}</li>
        ))}
      </ul>
    </div>
  );
}
