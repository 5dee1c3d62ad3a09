"use client";
/**
 * The key the deployment page's consoles send: the one created on the page when there is
 * one, else a console key of the page's own (deployments.consoleKey: an hour, listed with
 * the deployment's keys). It is kept in this tab's sessionStorage until shortly before it
 * expires, so a reload reuses it instead of making another. A console that works needs no
 * owner password and no key made by hand (issue 35). A page whose owner is signed in sends a
 * key too: one rule for every console, and the key is what a client would send.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useCallback } from "react";
import { z } from "zod";
import { useTRPC } from "@/components/providers/trpc";

// Taken anew this long before it expires, so a request never leaves with a key about to lapse.
const RENEW_BEFORE_MS = 5 * 60_000;
const ZStored = z.object({ key: z.string().min(1), expiresAt: z.number() });

const storageName = (deploymentId: string) => `trainyard.console-key.${deploymentId}`;

function stored(deploymentId: string): string | null {
  try {
    const parsed = ZStored.safeParse(JSON.parse(sessionStorage.getItem(storageName(deploymentId)) ?? "null"));
    return parsed.success && parsed.data.expiresAt - RENEW_BEFORE_MS > Date.now() ? parsed.data.key : null;
  } catch {
    return null; // storage turned off or unreadable: a new key is made, nothing else changes
  }
}

function store(deploymentId: string, key: string, expiresAt: Date) {
  try {
    sessionStorage.setItem(storageName(deploymentId), JSON.stringify({ key, expiresAt: new Date(expiresAt).getTime() }));
  } catch {
    // Not kept: the next send makes another console key.
  }
}

/** A request of a console, given the key to send. */
export type ConsoleRequest = (key: string) => Promise<Response>;

/**
 * `send(request)` runs the request with the key to send now. A stored console key that the
 * route refuses (revoked on this page, or the server's data home was replaced) is dropped
 * and the request made once more with a new one.
 */
export function useConsoleKey(deploymentId: string, pageKey: string | null) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const make = useMutation(
    trpc.deployments.consoleKey.mutationOptions({
      onSuccess: () => void queryClient.invalidateQueries({ queryKey: trpc.deployments.listKeys.queryKey({ deploymentId }) }),
    }),
  );
  const { mutateAsync } = make;
  const keyFor = useCallback(async (): Promise<string> => {
    if (pageKey) return pageKey;
    const kept = stored(deploymentId);
    if (kept) return kept;
    const made = await mutateAsync({ deploymentId });
    store(deploymentId, made.key, made.expiresAt);
    return made.key;
  }, [deploymentId, pageKey, mutateAsync]);
  const send = useCallback(
    async (request: ConsoleRequest): Promise<Response> => {
      const res = await request(await keyFor());
      if (res.status !== 401 || pageKey) return res;
      try {
        sessionStorage.removeItem(storageName(deploymentId));
      } catch {
        // Nothing kept to drop.
      }
      return request(await keyFor());
    },
    [deploymentId, pageKey, keyFor],
  );
  return { send, isMakingKey: make.isPending };
}
