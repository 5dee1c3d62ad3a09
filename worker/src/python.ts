// Find Python interpreters and whether each can create a venv. A Debian Python without
// python3-venv fails `-m venv` or lacks ensurepip: we say so with the fix.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export interface PythonInfo {
  candidate: string;
  path: string | null;
  version: string | null;
  canCreateVenv: boolean;
  problem: string | null;
  fix: string | null;
}

const IDENT = "import sys,json;print(json.dumps({'exe':sys.executable,'ver':'%d.%d.%d'%sys.version_info[:3]}))";

function run(cmd: string, args: string[]) {
  return spawnSync(cmd, args, { encoding: "utf8", timeout: 30_000, stdio: ["ignore", "pipe", "pipe"] });
}

export function identifyPython(candidate: string): { path: string; version: string } | null {
  const r = run(candidate, ["-c", IDENT]);
  if (r.error || r.status !== 0) return null;
  try {
    const j = JSON.parse(r.stdout.trim().split("\n").pop() ?? "");
    return { path: j.exe, version: j.ver };
  } catch {
    return null;
  }
}

function venvCheck(exe: string): { ok: boolean; problem: string | null } {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "trainyard-venv-check-"));
  try {
    const v = run(exe, ["-m", "venv", "--without-pip", path.join(tmp, "v")]);
    if (v.error || v.status !== 0) return { ok: false, problem: `\`${exe} -m venv\` failed: ${(v.stderr || v.error?.message || "").trim().slice(0, 300)}` };
    const e = run(exe, ["-c", "import ensurepip"]);
    if (e.error || e.status !== 0) return { ok: false, problem: `${exe} has no ensurepip module, so its venvs get no pip` };
    return { ok: true, problem: null };
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

export function probePythons(candidates: string[]): PythonInfo[] {
  const byExe = new Map<string, { ok: boolean; problem: string | null }>();
  return candidates.map((candidate) => {
    const id = identifyPython(candidate);
    if (!id) return { candidate, path: null, version: null, canCreateVenv: false, problem: "not found or did not run", fix: null };
    let check = byExe.get(id.path);
    if (!check) {
      check = venvCheck(id.path);
      byExe.set(id.path, check);
    }
    const [maj, min] = id.version.split(".");
    return {
      candidate,
      path: id.path,
      version: id.version,
      canCreateVenv: check.ok,
      problem: check.problem,
      fix: check.ok ? null : `apt install python3-venv (or python${maj}.${min}-venv)`,
    };
  });
}

/** Resolve the interpreter for prepare: an explicit one, else the first candidate that can make venvs. */
export function choosePython(candidates: string[], explicit?: string): PythonInfo | null {
  for (const c of explicit ? [explicit] : candidates) {
    const info = probePythons([c])[0];
    if (info?.canCreateVenv) return info;
  }
  return null;
}
