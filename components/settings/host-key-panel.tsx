"use client";
import { useMutation, useQueryClient } from "@tanstack/react-query";
import type { THostKeyProblemView } from "@/server/targets/targets.schema";
import { useTRPC } from "@/components/providers/trpc";
import { Button } from "@/components/ui/button";
import { errorText } from "@/components/ui/error-text";
import { ErrorMessage } from "@/components/ui/status-message";
import { formatTime } from "./format";

/** OpenSSH keeps the server's public key of each type under this name. */
const hostKeyFile = (keyType: string) => {
  const short = keyType.replace(/^ssh-/, "").replace(/^ecdsa-sha2-nistp\d+$/, "ecdsa");
  return `/etc/ssh/ssh_host_${short === "ed25519" || short === "ecdsa" || short === "rsa" ? short : "ed25519"}_key.pub`;
};

/**
 * A host key the server presented and Trainyard refused. Accepting sends the fingerprint
 * shown here, so a key that changed again since the page loaded is refused, not trusted.
 */
export function HostKeyPanel({ targetId, targetName, problem, onAccepted }: { targetId: string; targetName: string; problem: THostKeyProblemView; onAccepted: () => void }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const accept = useMutation(
    trpc.targets.acceptHostKey.mutationOptions({
      onSuccess: () => {
        void queryClient.invalidateQueries({ queryKey: trpc.targets.pathKey() });
        onAccepted();
      },
    }),
  );
  const changed = problem.status === "changed";
  const headingId = `host-key-${targetId}`;
  const tone = problem.status === "unknown" ? "border-amber-300 bg-amber-50 text-amber-950" : "border-red-300 bg-red-50 text-red-950";
  return (
    <section aria-labelledby={headingId} className={`flex flex-col gap-2 rounded-md border p-3 text-sm ${tone}`}>
      <h4 id={headingId} className="font-semibold">
        {problem.status === "unknown" && `Check the host key of ${targetName}`}
        {changed && `The host key of ${targetName} has CHANGED`}
        {problem.status === "revoked" && `${targetName} presented a revoked host key`}
      </h4>
      <p>
        {problem.status === "unknown" && `Trainyard has not seen this server's key before (${problem.hostName}), so it did not log in. `}
        {changed &&
          `The server at ${problem.hostName} now presents a different key from the one known for it. This happens after a reinstall, but it is also what an attacker in the middle looks like: do not accept it before you have checked it. `}
        {problem.status === "revoked" && `Your known_hosts marks this key of ${problem.hostName} as @revoked, so Trainyard will not use it. `}
        Seen {formatTime(problem.seenAt)}.
      </p>
      <div>
        <p className="font-medium">Presented {problem.keyType} key fingerprint:</p>
        <code data-testid="host-key-fingerprint" className="block break-all rounded bg-white px-2 py-1 font-mono text-slate-900">
          {problem.fingerprint}
        </code>
      </div>
      {changed && problem.knownFingerprints.length > 0 && (
        <div>
          <p className="font-medium">Known fingerprint{problem.knownFingerprints.length === 1 ? "" : "s"} for this host:</p>
          <ul>
            {problem.knownFingerprints.map((fp) => (
              <li key={fp}>
                <code className="break-all font-mono">{fp}</code>
              </li>
            ))}
          </ul>
        </div>
      )}
      {problem.status === "revoked" ? (
        <p>If the key was revoked by mistake, remove its @revoked line from known_hosts on this computer, then test access again.</p>
      ) : (
        <>
          <p>
            To check it, run <code className="break-all font-mono">ssh-keygen -lf {hostKeyFile(problem.keyType)}</code> on the server itself (at its console, or over a
            connection you already trust) and compare the second field with the fingerprint above. Accept only if they are the same.
          </p>
          <Button variant={changed ? "danger" : "primary"} className="self-start" disabled={accept.isPending} onClick={() => accept.mutate({ id: targetId, fingerprint: problem.fingerprint })}>
            {accept.isPending ? "Accepting…" : "Accept this key"}
          </Button>
        </>
      )}
      {accept.error && <ErrorMessage>{errorText(accept.error)}</ErrorMessage>}
    </section>
  );
}
