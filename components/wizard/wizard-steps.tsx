"use client";
import { useEffect, useRef } from "react";
import { Button } from "@/components/ui/button";

/** A ref for the step's heading, focused when the step changes (not on the first render), for keyboard and screen-reader users. */
export function useStepHeadingFocus(step: number | undefined) {
  const heading = useRef<HTMLHeadingElement>(null);
  const firstRender = useRef(true);
  useEffect(() => {
    if (firstRender.current) {
      firstRender.current = false;
      return;
    }
    heading.current?.focus();
  }, [step]);
  return heading;
}

/** The wizard's step list: each step a button to go to it; the current one marked for screen readers. */
export function WizardSteps({ titles, step, go }: { titles: readonly string[]; step: number; go: (step: number) => void }) {
  return (
    <nav aria-label="Wizard steps" className="-mx-4 overflow-x-auto px-4">
      <ol className="flex min-w-max gap-1 text-sm">
        {titles.map((t, i) => (
          <li key={t}>
            <button
              type="button"
              onClick={() => go(i)}
              aria-current={step === i ? "step" : undefined}
              className={`min-h-10 rounded-md px-2 py-1 ${step === i ? "bg-blue-700 text-white" : "text-slate-800 hover:bg-slate-100"}`}
            >
              {i + 1}. {t}
            </button>
          </li>
        ))}
      </ol>
    </nav>
  );
}

/** Back (after the first step) and Next (before the last, enabled once the step is complete). */
export function BackNext({ step, steps, canNext, go }: { step: number; steps: number; canNext: boolean; go: (step: number) => void }) {
  return (
    <div className="flex flex-wrap gap-2">
      {step > 0 && (
        <Button variant="secondary" onClick={() => go(step - 1)}>
          Back
        </Button>
      )}
      {step < steps - 1 && (
        <Button disabled={!canNext} onClick={() => go(step + 1)}>
          Next
        </Button>
      )}
    </div>
  );
}
