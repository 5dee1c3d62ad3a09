"use client";
import { useRef, useState } from "react";
import { Button } from "@/components/ui/button";

/**
 * A webhook's signing secret, shown once after the channel is made. The clipboard needs a
 * secure page (https or localhost); elsewhere Copy selects the text for the person to copy.
 */
export function CopySecret({ channelName, secret }: { channelName: string; secret: string }) {
  const input = useRef<HTMLInputElement>(null);
  const [copied, setCopied] = useState<"copied" | "selected" | null>(null);
  const copy = () => {
    input.current?.select();
    if (!navigator.clipboard) return setCopied("selected");
    navigator.clipboard.writeText(secret).then(
      () => setCopied("copied"),
      () => setCopied("selected"),
    );
  };
  return (
    <div role="status" className="flex min-w-0 flex-col gap-2 rounded-md border border-green-200 bg-green-50 p-3 text-sm">
      <p>
        The signing secret of &ldquo;{channelName}&rdquo; is shown this once: give it to your receiver now to verify each request (see docs/notifications.md).
      </p>
      <div className="flex min-w-0 flex-col gap-2 sm:flex-row">
        <label htmlFor="webhook-secret" className="sr-only">
          Signing secret of {channelName}
        </label>
        <input id="webhook-secret" ref={input} readOnly value={secret} className="min-h-10 min-w-0 flex-1 rounded-md border border-slate-400 bg-white px-3 py-2 font-mono text-xs" />
        <Button variant="secondary" onClick={copy}>
          Copy<span className="sr-only"> the signing secret</span>
        </Button>
      </div>
      {copied === "copied" && <p>Copied.</p>}
      {copied === "selected" && <p>This page cannot use the clipboard: the secret is selected, copy it with your keyboard or menu.</p>}
    </div>
  );
}
