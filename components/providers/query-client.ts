import { QueryClient } from "@tanstack/react-query";

/** Shared factory: live events keep data fresh, so queries don't refetch on focus. */
export function makeQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { staleTime: 5_000, refetchOnWindowFocus: false, retry: 1 },
      mutations: { retry: false },
    },
  });
}
