"use client";
import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useState } from "react";
import { Card } from "@/components/ui/card";
import { useTRPC } from "@/components/providers/trpc";
import { QueryState } from "@/components/ui/query-state";
import { DeploymentCard } from "./deployment-card";
import { KeysPanel } from "./keys-panel";
import { ReleasesPanel } from "./releases-panel";
import { ChatConsole } from "./chat-console";
import { curlExample, curlInvocationsExample, curlStreamExample, exampleRow, pythonExample, pythonOpenAiExample, pythonStreamExample } from "./route-examples";
import { RouteExamplesPanel } from "./route-examples-panel";
import { TestConsole } from "./test-console";
import { MonitorPanel } from "@/components/monitoring/monitor-panel";

/**
 * One deployment: its card (state, release, latency, Stop / Resume / Switch / Roll back),
 * its releases (an earlier one of another version can be rolled back to), its keys,
 * copyable curl and Python examples with one row built from the served version's feature
 * schema, its monitor (components/monitoring), and the test console; for a fine-tuned language model, stream examples and a
 * chat console. The schema comes from the version's experiment (models.show gives the
 * experiment of each version).
 */
export function DeploymentPage({ projectId, deploymentId }: { projectId: string; deploymentId: string }) {
  const trpc = useTRPC();
  // Its moves arrive on the live event stream (deployment.changed); the slow poll is for what no
  // move announces: a computer whose link went quiet, and the request counts.
  const show = useQuery(trpc.deployments.show.queryOptions({ deploymentId }, { refetchInterval: 30_000 }));
  const latency = useQuery(trpc.deployments.latency.queryOptions({ projectId }, { refetchInterval: 10_000 }));
  const d = show.data?.deployment;
  const releases = show.data?.releases ?? [];
  const model = useQuery({ ...trpc.models.show.queryOptions({ modelId: d?.model.id ?? "" }), enabled: !!d });
  const version = model.data?.versions.find((v) => v.number === d?.release?.version);
  // Only a tabular version has a feature schema (experiments.get refuses a fine-tune's experiment).
  const tabular = version?.identity.recipe === "tabular";
  const experiment = useQuery({ ...trpc.experiments.get.queryOptions({ id: version?.experimentId ?? "" }), enabled: tabular });
  const features = experiment.data?.results?.featureSchema?.features;
  const schemaRead = { isPending: !!d && (model.isPending || (tabular && experiment.isPending)), error: model.error ?? (tabular ? experiment.error : null) };
  // The key created on this page, the only time it is shown: the examples and the console use it.
  const [key, setKey] = useState<string | null>(null);
  return (
    <section aria-labelledby="deployment-heading" className="flex min-w-0 flex-col gap-3">
      <p className="text-sm">
        <Link href={`/projects/${projectId}/ml/deployments`} className="text-blue-800 underline">
          All deployments
        </Link>
      </p>
      <h2 id="deployment-heading" className="break-all text-lg font-semibold">
        {d ? `Deployment ${d.name}` : "Deployment"}
      </h2>
      <QueryState query={show} loading="Loading the deployment…" failure="Could not load the deployment" />
      {d && (
        <>
          <DeploymentCard d={d} latency={latency.data?.[d.id]} releases={releases} />
          <Card title="Releases" id="deployment-releases-heading">
            <ReleasesPanel d={d} releases={releases} />
          </Card>
          <Card title="Keys" id="deployment-keys-heading">
            <KeysPanel deploymentId={d.id} onKey={setKey} />
          </Card>
          <QueryState query={schemaRead} loading="Reading the version's feature schema…" failure="Could not read the version's feature schema" />
          {features && features.length > 0 && (
            <>
              <Card title="Call it" id="deployment-examples-heading">
                <p className="text-sm text-slate-700">
                  Send <code>Authorization: Bearer</code> with a key of this deployment. The route&apos;s full description is{" "}
                  <a href="/api/openapi.json" className="text-blue-800 underline">
                    /api/openapi.json
                  </a>
                  . MLflow clients can call <code className="break-all">{d.routes.invocations}</code>, Open Inference (KServe, Triton) clients{" "}
                  <code className="break-all">{`/api/deployments/${d.id}/v2/models/${encodeURIComponent(d.name)}/infer`}</code>.
                </p>
                <RouteExamplesPanel
                  build={(origin) => ({
                    curl: curlExample(origin, d.routes.predict, key, exampleRow(features)),
                    python: pythonExample(origin, d.routes.predict, key, exampleRow(features)),
                    mlflowCurl: curlInvocationsExample(origin, d.routes.invocations, key, exampleRow(features)),
                  })}
                />
              </Card>
              <Card title="Monitoring" id="deployment-monitoring-heading">
                <MonitorPanel deploymentId={d.id} />
              </Card>
              <Card title="Test console" id="deployment-console-heading">
                <p className="text-sm text-slate-700">{key ? "Sends the key created above." : "Sends a console key of this page (it works for an hour and is listed with the keys)."} Nothing of the request is stored; it counts in the requests and latency above.</p>
                <TestConsole deploymentId={d.id} predictPath={d.routes.predict} features={features} example={exampleRow(features)} apiKey={key} />
              </Card>
            </>
          )}
          {version && !tabular && (
            <>
              <Card title="Call it" id="deployment-examples-heading">
                <p className="text-sm text-slate-700">
                  Send <code>Authorization: Bearer</code> with a key of this deployment. <code>/stream</code> sends the answer as it is generated (Server-Sent Events); <code>/generate</code> takes the same body and answers once. The routes&apos; full description is{" "}
                  <a href="/api/openapi.json" className="text-blue-800 underline">
                    /api/openapi.json
                  </a>
                  .
                </p>
                <p className="text-sm text-slate-700">
                  OpenAI clients (the openai package, LangChain, …) take <code className="break-all">{d.routes.openai}</code> as their base URL, the key as their API key and <code>{d.name}</code> as the model.
                </p>
                <RouteExamplesPanel
                  build={(origin) => ({ curl: curlStreamExample(origin, d.routes.stream, key), python: pythonStreamExample(origin, d.routes.stream, key), openai: pythonOpenAiExample(origin, d.routes.openai, key) })}
                />
              </Card>
              <Card title="Monitoring" id="deployment-monitoring-heading">
                <MonitorPanel deploymentId={d.id} />
              </Card>
              <Card title="Chat console" id="deployment-chat-heading">
                <p className="text-sm text-slate-700">{key ? "Sends the key created above." : "Sends a console key of this page (it works for an hour and is listed with the keys)."} Nothing of the conversation is stored; each message counts in the requests and latency above.</p>
                <ChatConsole deploymentId={d.id} streamPath={d.routes.stream} apiKey={key} />
              </Card>
            </>
          )}
          {features?.length === 0 ? <p className="text-sm text-slate-700">Version {d.release?.version} has no feature schema, so this page has no /predict example or form for it.</p> : null}
        </>
      )}
    </section>
  );
}
