"use client";
/**
 * The wizard's state, restored from and saved to the project's draft (inputs and
 * choices only). Saves are debounced; a stale revision (another tab saved) adopts the
 * newer draft; a failed save keeps the local state and offers a retry.
 */
import { useMutation, useQuery } from "@tanstack/react-query";
import { useCallback, useEffect, useMemo, useRef, useState } from "react";
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
  parallelTrials: 1,
  minUsefulGain: null,
  patience: null,
};

export type SaveState = "idle" | "pending" | "saving" | "saved" | "failed";

export function useWizardDraft(projectId: string, preselectDataset: string | null) {
  const trpc = useTRPC();
  const draft = useQuery({ ...trpc.drafts.get.queryOptions({ projectId }), staleTime: Infinity });
  // Local edits; null until the user changes something (the server's draft shows until then).
  const [edited, setEdited] = useState<TWizardDraftData | null>(null);
  const [revision, setRevision] = useState<number | null>(null);
  const [saveState, setSaveState] = useState<SaveState>("idle");
  const [saveError, setSaveError] = useState<string | null>(null);
  const { mutateAsync: saveDraft } = useMutation(trpc.drafts.save.mutationOptions());
  const { mutateAsync: discardDraft } = useMutation(trpc.drafts.discard.mutationOptions());
  const lastSent = useRef<TWizardDraftData | null>(null);
  const latest = useRef<TWizardDraftData | null>(null);
  // Set once the wizard started its run: no save may follow the discard (a debounced save
  // that fired after it made a new draft, and the next wizard opened on "Review and start").
  const finished = useRef(false);
  const pendingSave = useRef<ReturnType<typeof setTimeout> | null>(null);

  // Restored: the saved draft, with ?dataset= taking precedence (it restarts the later choices).
  const restored = useMemo<TWizardDraftData | null>(() => {
    if (!draft.data) return null;
    const r = { ...EMPTY_DRAFT, ...draft.data.data };
    if (preselectDataset && preselectDataset !== r.datasetId) {
      return { ...r, datasetId: preselectDataset, target: null, task: null, metric: null, positiveClass: null, decided: {}, excludeColumns: [], split: { strategy: "random" }, step: 1 };
    }
    return r;
  }, [draft.data, preselectDataset]);
  const data = edited ?? restored;
  const currentRevision = revision ?? draft.data?.revision ?? 0;
  // Read when the debounced save fires, not when it was scheduled (a save may land in between).
  const revisionRef = useRef(currentRevision);
  useEffect(() => {
    revisionRef.current = currentRevision;
  }, [currentRevision]);

  // Saves run one after another: each reads the revision the previous one produced.
  const chain = useRef<Promise<unknown>>(Promise.resolve());
  const persist = useCallback(
    (value: TWizardDraftData) => {
      setSaveState("saving");
      lastSent.current = value;
      chain.current = chain.current.then(async () => {
        if (finished.current) return;
        try {
          const v = await saveDraft({ projectId, revision: revisionRef.current, data: value });
          revisionRef.current = v.revision;
          setRevision(v.revision);
          // A change made while this save was in flight is still to be saved: not "saved" yet.
          setSaveState(latest.current === value ? "saved" : "pending");
          setSaveError(null);
        } catch (err) {
          // Another tab saved first: take its revision, so "Retry" saves ours over it.
          const current = (err as { data?: { details?: { current?: { revision: number } } } }).data?.details?.current;
          if (current) {
            revisionRef.current = current.revision;
            setRevision(current.revision);
          }
          setSaveState("failed");
          setSaveError((err as Error).message);
        }
      });
    },
    [projectId, saveDraft],
  );

  useEffect(() => {
    latest.current = edited;
    if (!edited || edited === lastSent.current || finished.current) return;
    const t = setTimeout(() => persist(edited), 500);
    pendingSave.current = t;
    return () => clearTimeout(t);
  }, [edited, persist]);

  /** The run started: the draft goes, after any save already sent, and nothing saves it again. */
  const finish = useCallback(() => {
    finished.current = true;
    if (pendingSave.current) clearTimeout(pendingSave.current);
    chain.current = chain.current.then(() => discardDraft({ projectId })).catch(() => undefined);
  }, [discardDraft, projectId]);

  const update = useCallback(
    (patch: Partial<TWizardDraftData>) => {
      setSaveState("pending");
      setEdited((d) => ({ ...(d ?? restored ?? EMPTY_DRAFT), ...patch }));
    },
    [restored],
  );

  return {
    data,
    loading: draft.isPending,
    loadError: draft.error,
    update,
    saveState,
    saveError,
    retrySave: () => data && persist(data),
    finish,
  };
}
