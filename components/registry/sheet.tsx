"use client";
import { useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, type ReactNode } from "react";
import { useTRPC } from "@/components/providers/trpc";
import { Button } from "@/components/ui/button";

/**
 * A modal confirmation sheet (native <dialog>: focus stays inside, Escape closes). On a
 * phone it sits at the bottom, full width, and scrolls inside itself.
 */
export function Sheet({ title, onClose, children }: { title: string; onClose: () => void; children: ReactNode }) {
  const ref = useRef<HTMLDialogElement>(null);
  useEffect(() => {
    const d = ref.current;
    // No close() on cleanup: it would fire onClose; leaving the DOM takes it off the top layer.
    if (d && !d.open) d.showModal();
  }, []);
  return (
    <dialog
      ref={ref}
      aria-labelledby="sheet-title"
      onClose={onClose}
      className="mx-auto mb-0 mt-auto max-h-[90vh] w-full max-w-lg overflow-y-auto rounded-t-lg border border-slate-300 bg-white p-4 text-sm text-slate-900 backdrop:bg-slate-900/40 sm:my-auto sm:rounded-lg"
    >
      <h3 id="sheet-title" className="mb-3 text-base font-semibold">
        {title}
      </h3>
      {children}
    </dialog>
  );
}

/** The reason every alias move records with its event. */
/** The reason recorded with an event; `optionalAs`: left empty, it is recorded in those words. */
export function ReasonField({ value, onChange, optionalAs }: { value: string; onChange: (v: string) => void; optionalAs?: string }) {
  return (
    <label className="flex flex-col gap-1">
      <span className="font-medium">{optionalAs ? "Reason (optional, recorded with the event)" : "Reason (recorded with the event)"}</span>
      <textarea
        value={value}
        onChange={(e) => onChange(e.target.value)}
        rows={2}
        maxLength={2000}
        required={!optionalAs}
        placeholder={optionalAs ? `“${optionalAs}” when left empty` : undefined}
        className="rounded-md border border-slate-400 p-2"
      />
    </label>
  );
}

/**
 * A sheet's mutation callbacks: every registry view is read again either way (a refusal
 * often means the model moved), and the sheet closes on success.
 */
export function useRefreshModels(onClose: () => void) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const refresh = () => void queryClient.invalidateQueries({ queryKey: trpc.models.pathKey() });
  return {
    onSuccess: () => {
      refresh();
      onClose();
    },
    onError: refresh,
  };
}

/** A destructive sheet's two buttons: the confirmation (submits the sheet's form) and "Not now". */
export function ConfirmButtons({ label, disabled, onClose }: { label: string; disabled: boolean; onClose: () => void }) {
  return (
    <div className="flex flex-wrap gap-2">
      <Button type="submit" variant="danger" disabled={disabled}>
        {label}
      </Button>
      <Button variant="secondary" onClick={onClose}>
        Not now
      </Button>
    </div>
  );
}
