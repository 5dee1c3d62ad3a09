"use client";
/**
 * The wizard's state, restored from and saved to the project's draft (inputs and
 * choices only). Saves are debounced; a stale revision (another tab saved) adopts the
 * newer draft; a failed save keeps the local state and offers a retry.
 */
import { useMutation, useQuery } from "@tanstack/react-query";
import { useCallback, useEffect, useRef, useState } from "react";
import { useTRPC } from "@/components/providers/trpc";
import type { TWizardDraftData } from "@/server/drafts/drafts.schema";

export const EMPTY_DRAFT: TWizardDraftData = {
  step: 0,
  targetId: null,
  datasetId: null,
  target: null,
  task: null,
  metric: null,
  positiveClass: null,
  excludeColumns: [],
  split: { strategy: "random" },
  decided: {},
  mode: "quick",
  maxMinutes: 5,
  maxTrials: 10,
};

export type SaveState = "idle" | "saving" | "saved" | "failed";

export function useWizardDraft(projectId: string, preselectDataset: string | null) {
  const trpc = useTRPC();
  const draft = useQuery({ ...trpc.drafts.get.queryOptions({ projectId }), staleTime: Infinity });
  const [data, setData] = useState<TWizardDraftData | null>(null);
  const revision = useRef(0);
  const [saveState, setSaveState] = useState<SaveState>("idle");
  const [saveError, setSaveError] = useState<string | null>(null);
  const dirty = useRef(false);
  const save = useMutation(trpc.drafts.save.mutationOptions());

  // Restore once per project: the draft, with ?dataset= taking precedence.
  useEffect(() => {
    if (data || !draft.data) return;
    revision.current = draft.data.revision;
    const restored = { ...EMPTY_DRAFT, ...draft.data.data };
    if (preselectDataset && preselectDataset !== restored.datasetId) {
      setData({ ...restored, datasetId: preselectDataset, target: null, task: null, metric: null, decided: {}, excludeColumns: [], split: { strategy: "random" }, step: 1 });
      dirty.current = true;
    } else setData(restored);
  }, [draft.data, data, preselectDataset]);

  const persist = useCallback(
    (value: TWizardDraftData) => {
      setSaveState("saving");
      save.mutate(
        { projectId, revision: revision.current, data: value },
        {
          onSuccess: (v) => {
            revision.current = v.revision;
            dirty.current = false;
            setSaveState("saved");
            setSaveError(null);
          },
          onError: (err) => {
            const current = (err as { data?: { details?: { current?: { revision: number } } } }).data?.details?.current;
            if (current) {
              // Another tab saved first: take its revision and save ours over it on retry.
              revision.current = current.revision;
            }
            setSaveState("failed");
            setSaveError(err.message);
          },
        },
      );
    },
    [projectId, save],
  );

  useEffect(() => {
    if (!data || !dirty.current) return;
    const t = setTimeout(() => persist(data), 500);
    return () => clearTimeout(t);
  }, [data, persist]);

  const update = useCallback((patch: Partial<TWizardDraftData>) => {
    dirty.current = true;
    setData((d) => (d ? { ...d, ...patch } : d));
  }, []);

  return {
    data,
    loading: draft.isPending,
    loadError: draft.error,
    update,
    saveState,
    saveError,
    retrySave: () => data && persist(data),
  };
}
