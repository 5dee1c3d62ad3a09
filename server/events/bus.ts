/**
 * In-process publish/subscribe for live events. One bus per process (on globalThis,
 * because Next.js bundles route handlers apart from the server entry). A failing
 * listener is dropped and cannot break publishers. Events are not persisted: after a
 * reconnect the client refetches the current state instead of replaying.
 */
import { topicsOf, type Envelope, type LiveEvent } from "./event-types";

type Listener = (e: Envelope) => void;

class EventBus {
  private seq = 0;
  private listeners = new Set<{ topics: Set<string> | null; fn: Listener }>();

  publish(event: LiveEvent): void {
    const envelope: Envelope = { id: ++this.seq, topics: topicsOf(event), event, at: new Date().toISOString() };
    for (const l of [...this.listeners]) {
      if (l.topics && !envelope.topics.some((t) => l.topics!.has(t))) continue;
      try {
        l.fn(envelope);
      } catch {
        this.listeners.delete(l);
      }
    }
  }

  /** `topics` null means every event. Returns the unsubscribe function. */
  subscribe(topics: string[] | null, fn: Listener): () => void {
    const entry = { topics: topics ? new Set(topics) : null, fn };
    this.listeners.add(entry);
    return () => this.listeners.delete(entry);
  }

  get listenerCount(): number {
    return this.listeners.size;
  }
}

const KEY = Symbol.for("trainyard.eventBus");
export function eventBus(): EventBus {
  const g = globalThis as { [KEY]?: EventBus };
  return (g[KEY] ??= new EventBus());
}

export const publish = (event: LiveEvent) => eventBus().publish(event);
