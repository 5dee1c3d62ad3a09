"use client";
/**
 * One EventSource per tab. Any event invalidates the cached queries (they refetch if a
 * page shows them); after a dropped connection the reopen refetches everything,
 * because events missed in between are not replayed.
 */
import { useQueryClient } from "@tanstack/react-query";
import { useEffect } from "react";

export function LiveEvents() {
  const queryClient = useQueryClient();
  useEffect(() => {
    const source = new EventSource("/api/events");
    let opened = false;
    source.onopen = () => {
      if (opened) void queryClient.invalidateQueries();
      opened = true;
    };
    const onEvent = () => void queryClient.invalidateQueries();
    const types = ["project.changed", "job.changed", "job.log", "experiment.changed", "target.changed", "dataset.changed", "search.changed", "deployment.changed", "model.changed", "monitor.changed", "schedule.changed", "notification.changed"];
    for (const t of types) source.addEventListener(t, onEvent);
    return () => source.close();
  }, [queryClient]);
  return null;
}
