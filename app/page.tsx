import { ProjectsPage } from "@/components/ml/projects-page";

export default function Home() {
  return <ProjectsPage />;
}
