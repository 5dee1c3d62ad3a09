/**
 * What one agent tool is: its input shape, its output shape and one function of the bound
 * project (project-scope.ts). The MCP server (mcp-server.ts) publishes both shapes and
 * parses every answer with the output shape before it leaves, so a field that is not in
 * the shape never reaches an agent.
 */
import type { z } from "zod";
import type { ProjectScope } from "./project-scope";

type AnyObject = z.ZodObject<z.ZodRawShape>;

interface ToolSpec<I extends AnyObject, O extends AnyObject> {
  name: string;
  description: string;
  input: I;
  output: O;
  /** Changes something (a proposal, a cancel, a promotion): never listed for a read-only token. */
  writes?: boolean;
  run(scope: ProjectScope, input: z.output<I>): Promise<z.output<O>>;
}

/** A tool as the MCP server registers it: its shapes, and its answer parsed by both. */
export interface AgentTool {
  name: string;
  description: string;
  input: AnyObject;
  output: AnyObject;
  writes: boolean;
  answer(scope: ProjectScope, args: unknown): Promise<Record<string, unknown>>;
}

export function tool<I extends AnyObject, O extends AnyObject>(spec: ToolSpec<I, O>): AgentTool {
  return {
    name: spec.name,
    description: spec.description,
    input: spec.input,
    output: spec.output,
    writes: spec.writes ?? false,
    answer: async (scope, args) => spec.output.parse(await spec.run(scope, spec.input.parse(args))),
  };
}
