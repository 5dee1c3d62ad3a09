"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useTRPC } from "@/components/providers/trpc";
import { DeleteOrKeep } from "@/components/ui/delete-or-keep";
import { errorText } from "@/components/ui/error-text";
import { ErrorMessage } from "@/components/ui/status-message";

/** The confirm step of Delete; the server refuses while jobs there are live, and says so. */
export function RemoveServer({ targetId, targetName, onCancel }: { targetId: string; targetName: string; onCancel: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const remove = useMutation(
    trpc.targets.remove.mutationOptions({
      onSuccess: () => void queryClient.invalidateQueries({ queryKey: trpc.targets.pathKey() }),
    }),
  );
  return (
    <div className="flex flex-col gap-2 rounded-md border border-red-200 bg-red-50 p-3 text-sm text-red-950">
      <p>
        Delete {targetName} from Trainyard? Nothing on the server is removed: its worker directory stays until you delete it there. Projects that used it as their
        default go back to This computer.
      </p>
      <DeleteOrKeep
        className="flex flex-col gap-2 sm:flex-row"
        label={`Delete ${targetName}`}
        pending={remove.isPending}
        onDelete={() => remove.mutate({ id: targetId })}
        onKeep={onCancel}
      />
      {remove.error && <ErrorMessage>{errorText(remove.error)}</ErrorMessage>}
    </div>
  );
}
