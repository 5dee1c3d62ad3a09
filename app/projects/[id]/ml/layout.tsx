import type { ReactNode } from "react";
import { ProjectHeader } from "@/components/ml/project-header";

export default async function MlLayout({ children, params }: { children: ReactNode; params: Promise<{ id: string }> }) {
  const { id } = await params;
  return (
    <div className="flex flex-col gap-6">
      <ProjectHeader projectId={id} />
      {children}
    </div>
  );
}
