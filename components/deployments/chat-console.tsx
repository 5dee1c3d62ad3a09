"use client";
/**
 * The chat console of a fine-tuned language model's deployment: the conversation goes to
 * the deployment's real stream route (the one a client calls) with the key created on this
 * page, else the page's own console key (use-console-key.ts). The answer grows as its deltas arrive; Stop aborts the
 * request, and the serving process stops generating at the next token. A refusal (before
 * the stream starts) or an error event (during it) says why. The conversation lives in this
 * page only: nothing of it is stored.
 */
import { useRef, useState, type FormEvent } from "react";
import { ZDeploymentRefusal, type DeploymentStreamEvent } from "@/contracts/deployments/serving";
import { readStreamEvents } from "@/contracts/deployments/stream-events";
import { Button } from "@/components/ui/button";
import { ErrorMessage } from "@/components/ui/status-message";
import { useConsoleKey } from "./use-console-key";

type Turn = { role: "user" | "assistant"; content: string };
type Result = Extract<DeploymentStreamEvent, { type: "result" }>;

const MAX_NEW_TOKENS = 128;
const FINISH_WORDS: Record<Result["finishReason"], string> = {
  stop: "the model ended its answer",
  length: `it reached the ${MAX_NEW_TOKENS}-token limit of this console`,
  deadline: "it reached the deployment's time limit per request",
};

/** Why the route refused, in words. */
async function refusalText(res: Response): Promise<string> {
  const refusal = ZDeploymentRefusal.safeParse(await res.json().catch(() => null));
  return refusal.success ? refusal.data.error : `The route answered ${res.status} without a readable reason.`;
}

export function ChatConsole({ deploymentId, streamPath, apiKey }: { deploymentId: string; streamPath: string; apiKey: string | null }) {
  const { send: sendWithKey } = useConsoleKey(deploymentId, apiKey);
  const [turns, setTurns] = useState<Turn[]>([]);
  const [draft, setDraft] = useState("");
  // The answer while it streams; null when nothing is being answered.
  const [live, setLive] = useState<string | null>(null);
  const [outcome, setOutcome] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const running = useRef<AbortController | null>(null);

  const send = async (e: FormEvent) => {
    e.preventDefault();
    const content = draft.trim();
    if (!content) return setProblem("Write a message first.");
    const messages: Turn[] = [...turns, { role: "user", content }];
    const controller = new AbortController();
    running.current = controller;
    setTurns(messages);
    setDraft("");
    setProblem(null);
    setOutcome(null);
    setLive("");
    let text = "";
    let release = "";
    const answered = (note: string) => {
      setTurns([...messages, { role: "assistant", content: text }]);
      setOutcome(note);
    };
    try {
      const res = await sendWithKey((key) =>
        fetch(streamPath, {
          method: "POST",
          credentials: "same-origin",
          headers: { "content-type": "application/json", authorization: `Bearer ${key}` },
          body: JSON.stringify({ messages, maxNewTokens: MAX_NEW_TOKENS }),
          signal: controller.signal,
        }),
      );
      if (!res.ok || !res.body) {
        setTurns(turns);
        setDraft(content);
        return setProblem(await refusalText(res));
      }
      await readStreamEvents(res.body, (ev) => {
        if (ev.type === "metadata") release = `release ${ev.release.number}, version ${ev.release.version}`;
        else if (ev.type === "delta") setLive((text += ev.text));
        else if (ev.type === "result") {
          text = ev.text;
          answered(`${ev.generatedTokens} tokens from ${release}: ${FINISH_WORDS[ev.finishReason]}.`);
        } else if (ev.type === "error") {
          answered(`Cut short after ${text.length} characters.`);
          setProblem(ev.message);
        }
      });
    } catch (err) {
      if (controller.signal.aborted) answered("Stopped: the deployment stopped generating.");
      else setProblem(`The stream broke off: ${(err as Error).message}`);
    } finally {
      running.current = null;
      setLive(null);
    }
  };

  return (
    <form onSubmit={(e) => void send(e)} className="flex flex-col gap-3" aria-label="Chat console">
      {turns.length > 0 || live !== null ? (
        <ol aria-label="Conversation" className="flex flex-col gap-2">
          {turns.map((t, i) => (
            <li key={i} className={`whitespace-pre-wrap break-words rounded-md p-2 text-sm ${t.role === "user" ? "bg-slate-100" : "border border-blue-200 bg-blue-50"}`} data-testid={`chat-${t.role}`}>
              <span className="font-medium">{t.role === "user" ? "You" : "Model"}: </span>
              {t.content}
            </li>
          ))}
          {live !== null && (
            <li className="whitespace-pre-wrap break-words rounded-md border border-blue-200 bg-blue-50 p-2 text-sm" data-testid="chat-live" aria-live="polite">
              <span className="font-medium">Model: </span>
              {live || "…"}
            </li>
          )}
        </ol>
      ) : null}
      <label htmlFor="chat-message" className="text-sm font-medium">
        Message
      </label>
      <textarea id="chat-message" className="min-h-20 w-full rounded-md border border-slate-400 bg-white p-2" value={draft} onChange={(e) => setDraft(e.target.value)} aria-invalid={problem === "Write a message first." ? true : undefined} />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" disabled={live !== null}>
          {live !== null ? "Answering…" : "Send to the deployment"}
        </Button>
        {live !== null && (
          <Button type="button" variant="secondary" onClick={() => running.current?.abort()}>
            Stop
          </Button>
        )}
        {turns.length > 0 && live === null && (
          <Button type="button" variant="secondary" onClick={() => (setTurns([]), setOutcome(null), setProblem(null))}>
            New conversation
          </Button>
        )}
      </div>
      {problem && <ErrorMessage>{problem}</ErrorMessage>}
      {outcome && (
        <p role="status" className="text-sm text-slate-700" data-testid="chat-outcome">
          {outcome}
        </p>
      )}
    </form>
  );
}
