"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { RunNowAnswer, ScheduleView } from "@/contracts/schedules/schedules";
import { useTRPC } from "@/components/providers/trpc";

export const isConflict = (err: unknown) => (err as { data?: { code?: string } } | null)?.data?.code === "CONFLICT";

/**
 * A card's pause / resume / remove (each naming the revision the card shows) and run now.
 * Every answer, refusals included, reads the schedules again: a CONFLICT means the card
 * was stale, and the refetched card is what the person chooses from next. Run now's
 * answer is kept: the card follows that run until it is decided.
 */
export function useScheduleMutations(schedule: ScheduleView) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const options = { onSettled: () => void queryClient.invalidateQueries({ queryKey: trpc.schedules.pathKey() }) };
  const pause = useMutation(trpc.schedules.pause.mutationOptions(options));
  const resume = useMutation(trpc.schedules.resume.mutationOptions(options));
  const remove = useMutation(trpc.schedules.remove.mutationOptions(options));
  const [answer, setAnswer] = useState<RunNowAnswer | null>(null);
  const runNow = useMutation(trpc.schedules.runNow.mutationOptions({ ...options, onSuccess: setAnswer }));
  const all = [pause, resume, remove, runNow];
  const at = { id: schedule.id, revision: schedule.revision };
  const reset = () => {
    all.forEach((m) => m.reset());
    setAnswer(null);
  };
  return {
    pause: () => (reset(), pause.mutate(at)),
    resume: () => (reset(), resume.mutate(at)),
    remove: () => (reset(), remove.mutate(at)),
    runNow: () => (reset(), runNow.mutate({ id: schedule.id })),
    pending: { pause: pause.isPending, resume: resume.isPending, remove: remove.isPending, runNow: runNow.isPending },
    busy: all.some((m) => m.isPending),
    error: pause.error ?? resume.error ?? remove.error ?? runNow.error,
    removeError: remove.error,
    answer,
    dismiss: reset,
  };
}
