"use client";
import { useState, useSyncExternalStore } from "react";
import { Button } from "@/components/ui/button";

const noSubscribe = () => () => {};

function Example({ label, code, testId }: { label: string; code: string; testId: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <figure className="flex min-w-0 flex-col gap-1">
      <figcaption className="flex flex-wrap items-center gap-2 text-sm font-medium">
        {label}
        <Button
          variant="secondary"
          onClick={() => {
            void navigator.clipboard?.writeText(code).then(() => setCopied(true));
          }}
        >
          Copy<span className="sr-only"> the {label} example</span>
        </Button>
        {copied && <span role="status">Copied.</span>}
      </figcaption>
      <pre className="overflow-x-auto rounded-md bg-slate-900 p-3 text-xs text-slate-100" data-testid={testId} tabIndex={0} aria-label={`${label} example`}>
        {code}
      </pre>
    </figure>
  );
}

/**
 * curl and Python examples of a route with this server's URL as the browser reached it:
 * `build` writes them for that origin (predict with a row, or a language model's stream),
 * and for a tabular deployment the same row through MLflow's /invocations (`mlflowCurl`);
 * for a language model the openai client on its OpenAI-compatible routes (`openai`).
 */
export function RouteExamplesPanel({ build }: { build: (origin: string) => { curl: string; python: string; mlflowCurl?: string; openai?: string } }) {
  // Empty while rendering on the server; the browser fills in its real origin.
  const origin = useSyncExternalStore(noSubscribe, () => window.location.origin, () => "");
  const { curl, python, mlflowCurl, openai } = build(origin);
  return (
    <div className="flex min-w-0 flex-col gap-3">
      <Example label="curl" code={curl} testId="curl-example" />
      <Example label="Python" code={python} testId="python-example" />
      {mlflowCurl !== undefined && <Example label="curl, MLflow scoring protocol (/invocations)" code={mlflowCurl} testId="curl-invocations-example" />}
      {openai !== undefined && <Example label="Python, openai client (/v1)" code={openai} testId="openai-example" />}
    </div>
  );
}
