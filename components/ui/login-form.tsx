"use client";
import { useState, type FormEvent } from "react";
import { Button } from "./button";
import { ErrorMessage } from "./status-message";

/** `next` is where to go once signed in, already checked by the page (safeNextPath). */
export function LoginForm({ next }: { next: string }) {
  const [password, setPassword] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setPending(true);
    setError(null);
    try {
      const res = await fetch("/api/auth/login", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ password }),
      });
      if (res.ok) {
        window.location.assign(next);
        return;
      }
      const body = (await res.json().catch(() => ({}))) as { error?: string };
      setError(body.error ?? "Sign-in failed.");
    } catch {
      setError("The server did not answer. Is Trainyard running?");
    } finally {
      setPending(false);
    }
  };
  return (
    <form onSubmit={submit} className="flex flex-col gap-3">
      <label htmlFor="owner-password" className="text-sm font-medium">
        Owner password
      </label>
      <input
        id="owner-password"
        type="password"
        autoComplete="current-password"
        value={password}
        onChange={(e) => setPassword(e.target.value)}
        className="min-h-10 rounded-md border border-slate-400 px-3 py-2"
      />
      <Button type="submit" disabled={pending || !password}>
        {pending ? "Signing in…" : "Sign in"}
      </Button>
      {error && <ErrorMessage>{error}</ErrorMessage>}
    </form>
  );
}
