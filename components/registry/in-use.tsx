"use client";
import { useQueries, useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useTRPC } from "@/components/providers/trpc";
import { actorWords } from "./decision-words";

/** "Which model is in use?": each model's selected version, its score, and the event that selected it. */
export function InUse({ projectId }: { projectId: string }) {
  const trpc = useTRPC();
  const list = useQuery(trpc.models.list.queryOptions({ projectId }));
  const models = list.data ?? [];
  const histories = useQueries({ queries: models.map((m) => trpc.models.history.queryOptions({ modelId: m.id, limit: 20 })) });
  if (list.error) return <>Could not load the models.</>;
  if (!list.data) return <>Loading…</>;
  if (models.length === 0) return <>None yet: register a finished experiment as a model version, then promote it.</>;
  return (
    <ul className="flex flex-col gap-2" data-testid="overview-in-use">
      {models.map((m, i) => {
        const sel = m.selected;
        const event = histories[i]?.data?.find((e) => e.alias === "selected");
        return (
          <li key={m.id}>
            <strong className="break-words">{m.name}</strong>:{" "}
            {sel ? (
              <>
                version {sel.number} ({sel.evidenceWords}{sel.baseModel ? `; base model ${sel.baseModel}` : ""}), selected {new Date(sel.selectedAt).toLocaleString()}
                {event && (
                  <span className="block text-slate-700">
                    {event.kind === "promote" ? "Promoted" : "Rolled back"} by {actorWords(event.actor)}: “{event.reason}”
                    {event.acknowledgedRegression ? " (with an acknowledgement of what the gate found)" : ""}.
                  </span>
                )}
              </>
            ) : (
              "no version is in use yet."
            )}{" "}
            <Link className="text-blue-800 underline" href={`/projects/${projectId}/ml/models`}>
              Models<span className="sr-only"> ({m.name})</span>
            </Link>
          </li>
        );
      })}
    </ul>
  );
}
