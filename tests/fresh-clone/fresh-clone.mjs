#!/usr/bin/env node
// The README's first run, as a new user meets it, on a tree with no build outputs:
// a copy of the working tree (tracked files plus untracked ones git does not ignore, so
// uncommitted changes are tested too; `--ref COMMIT` copies a commit instead) without
// dist/ or .next-builds/, sharing node_modules (hard links: `npm install` would add the
// same packages; Turbopack refuses a node_modules symlink that leads out of the project,
// so the copy lives on node_modules' file system: copyParent below) and the recipe
// environments (TRAINYARD_ENVS_DIR, as the other tiers do,
// so training does not spend minutes on pip). It runs `npm start` with a fresh data home
// on a free port, waits for /api/health, trains penguins through the CLI exactly as the
// README says, checks the export (status, SHA-256 of the archive against the server's),
// and stops the server with SIGTERM. Each step is one test case in a JUnit XML file
// (`--junit FILE`), which scripts/test-totals.mjs counts.
//
//   node tests/fresh-clone/fresh-clone.mjs [--junit FILE] [--ref COMMIT] [--keep]
//
// Plain Node (no tsx, no build): it must run before anything is built.
import { spawn, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, createReadStream, existsSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const { values: opts } = parseArgs({
  options: { junit: { type: "string" }, ref: { type: "string" }, keep: { type: "boolean", default: false } },
});
const ENVS_DIR = process.env.TRAINYARD_TEST_ENVS_DIR ?? path.join(REPO, ".tmp", "envs");
// A loaded two-core machine builds the web app in a few minutes; far more means a hang.
const START_TIMEOUT_MS = 15 * 60_000;
const TRAIN_TIMEOUT_MS = 10 * 60_000;

const cases = [];
let failedStep = null;
const log = (line) => console.log(`[fresh-clone] ${line}`);

/** Runs one step as a test case; after a failure the remaining steps fail as not run. */
async function step(name, fn) {
  const started = Date.now();
  if (failedStep) {
    cases.push({ name, seconds: 0, failure: `not run: "${failedStep}" failed` });
    return undefined;
  }
  log(`${name}…`);
  try {
    const value = await fn();
    cases.push({ name, seconds: (Date.now() - started) / 1000, failure: null });
    log(`ok: ${name} (${Math.round((Date.now() - started) / 1000)} s)`);
    return value;
  } catch (err) {
    failedStep = name;
    const message = err instanceof Error ? err.message : String(err);
    cases.push({ name, seconds: (Date.now() - started) / 1000, failure: message });
    log(`FAILED: ${name}\n${message}`);
    return undefined;
  }
}

const xmlEscape = (s) => s.replace(/[<>&"]/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", '"': "&quot;" })[c]);

function writeJunit(file) {
  const failures = cases.filter((c) => c.failure).length;
  const body = cases
    .map((c) => {
      const open = `    <testcase classname="fresh-clone" name="${xmlEscape(c.name)}" time="${c.seconds.toFixed(1)}"`;
      if (!c.failure) return `${open}/>`;
      return `${open}>\n      <failure message="${xmlEscape(c.failure.split("\n")[0].slice(0, 300))}">${xmlEscape(c.failure)}</failure>\n    </testcase>`;
    })
    .join("\n");
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(
    file,
    `<?xml version="1.0" encoding="utf-8"?>\n<testsuites>\n  <testsuite name="fresh-clone" tests="${cases.length}" failures="${failures}" errors="0" skipped="0">\n${body}\n  </testsuite>\n</testsuites>\n`,
  );
}

function run(cmd, args, options = {}) {
  const r = spawnSync(cmd, args, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024, ...options });
  if (r.status !== 0) throw new Error(`${cmd} ${args.join(" ")} exited ${r.status ?? r.signal}:\n${(r.stdout ?? "") + (r.stderr ?? "")}`.slice(-4000));
  return r.stdout;
}

/** The files a fresh clone has: the working tree's (or a commit's) tracked and non-ignored files. */
function makeCopy(dest) {
  if (opts.ref) {
    const archive = spawnSync("git", ["archive", "--format=tar", opts.ref], { cwd: REPO, maxBuffer: 512 * 1024 * 1024 });
    if (archive.status !== 0) throw new Error(`git archive ${opts.ref} failed: ${archive.stderr}`);
    run("tar", ["-x", "-C", dest], { input: archive.stdout });
    return;
  }
  const listed = run("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: REPO }).split("\0").filter(Boolean);
  for (const rel of listed) {
    const from = path.join(REPO, rel);
    // Tracked but deleted in the working tree: a clone of this tree would not have it.
    const st = statSync(from, { throwIfNoEntry: false });
    if (!st?.isFile()) continue;
    const to = path.join(dest, rel);
    mkdirSync(path.dirname(to), { recursive: true });
    copyFileSync(from, to);
  }
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once("error", reject);
    srv.listen(0, "127.0.0.1", () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

function sha256(file) {
  return new Promise((resolve, reject) => {
    const hash = createHash("sha256");
    createReadStream(file)
      .on("data", (d) => hash.update(d))
      .on("error", reject)
      .on("end", () => resolve(hash.digest("hex")));
  });
}

/** A user's environment: no TRAINYARD_* settings from the caller, only the ones given here. */
function userEnv(extra) {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith("TRAINYARD_")) env[k] = v;
  return { ...env, NEXT_TELEMETRY_DISABLED: "1", ...extra };
}

/**
 * Where the copy goes: the system's temporary folder when it is on node_modules' file system
 * (hard links), else <repo>/.tmp/. A copy inside this repository is a clone no user has:
 * Next's build there took 3.5 minutes instead of half of one (mostly waiting, with the same
 * CPU time), so it is the fallback only.
 */
function copyParent() {
  const system = os.tmpdir();
  if (statSync(system).dev === statSync(path.join(REPO, "node_modules")).dev) return system;
  const inRepo = path.join(REPO, ".tmp", "fresh-clone");
  mkdirSync(inRepo, { recursive: true });
  return inRepo;
}

const tmp = mkdtempSync(path.join(copyParent(), "trainyard-fresh-clone-"));
const copy = path.join(tmp, "trainyard");
const home = path.join(tmp, "home");
const out = path.join(tmp, "out");
mkdirSync(copy);
const port = await freePort();
const env = userEnv({ TRAINYARD_HOME: home, TRAINYARD_PORT: String(port), TRAINYARD_ENVS_DIR: ENVS_DIR });
const url = `http://127.0.0.1:${port}`;
let server = null;
let serverOutput = "";
let serverExit = null;
let result = null;
log(`copy in ${copy}${opts.ref ? ` (commit ${opts.ref})` : " (working tree)"}, server on port ${port}, envs from ${ENVS_DIR}`);

await step("a copy of the tree has no build outputs", () => {
  makeCopy(copy);
  for (const built of ["dist", ".next-builds", ".next", "generated"]) {
    if (existsSync(path.join(copy, built))) throw new Error(`the copy has ${built}/, which a fresh clone does not`);
  }
  run("cp", ["-al", path.join(REPO, "node_modules"), path.join(copy, "node_modules")]);
  // What `npm install` runs after installing packages (the postinstall script): the
  // Prisma client, generated into the clone's own generated/ folder.
  run("npm", ["run", "--silent", "postinstall"], { cwd: copy, env });
});

await step("npm start builds what it needs and answers /api/health", async () => {
  // Its own process group, so that stopping it reaches npm and the server under it.
  server = spawn("npm", ["start"], { cwd: copy, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  server.stdout.on("data", (d) => (serverOutput += d));
  server.stderr.on("data", (d) => (serverOutput += d));
  server.once("exit", (code, signal) => (serverExit = { code, signal }));
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    if (serverExit) throw new Error(`npm start exited (${serverExit.code ?? serverExit.signal}) before /api/health answered:\n${serverOutput.slice(-4000)}`);
    const ok = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(5000) }).then((r) => r.ok, () => false);
    if (ok) return;
    if (Date.now() > deadline) throw new Error(`/api/health did not answer within ${START_TIMEOUT_MS / 60_000} min:\n${serverOutput.slice(-4000)}`);
    await new Promise((r) => setTimeout(r, 1000));
  }
});

await step("npx trainyard train penguins (README command) succeeds with --json", () => {
  mkdirSync(out, { recursive: true });
  const args = ["trainyard", "train", "--data", "tests/fixtures/tabular/penguins.csv", "--target", "species", "--json", "--mode", "quick", "--max-minutes", "3", "--out", out];
  const r = spawnSync("npx", args, { cwd: copy, env, encoding: "utf8", timeout: TRAIN_TIMEOUT_MS, maxBuffer: 64 * 1024 * 1024 });
  const said = `exit ${r.status ?? r.signal}\n--- stdout\n${r.stdout}\n--- stderr\n${(r.stderr ?? "").slice(-4000)}`;
  try {
    result = JSON.parse(r.stdout);
  } catch {
    throw new Error(`train did not print one JSON object:\n${said}`);
  }
  if (r.status !== 0 || result.status !== "succeeded") throw new Error(`train did not succeed:\n${said}`);
  log(`experiment ${result.experimentId}: ${result.metric} ${result.candidate} (baseline ${result.baseline}) in ${result.seconds} s`);
});

await step("the saved export is the archive the server verified (SHA-256)", async () => {
  if (!result.exportPath || !existsSync(result.exportPath)) throw new Error(`no export file at ${result.exportPath}`);
  if (path.dirname(result.exportPath) !== out) throw new Error(`the export was saved to ${result.exportPath}, not into --out ${out}`);
  const input = encodeURIComponent(JSON.stringify({ json: { id: result.experimentId } }));
  const res = await fetch(`${url}/api/trpc/experiments.get?input=${input}`, { signal: AbortSignal.timeout(30_000) });
  const body = await res.json();
  const stated = body?.result?.data?.json?.exportSha256;
  if (!res.ok || typeof stated !== "string") throw new Error(`the server did not state the export's SHA-256 (HTTP ${res.status}): ${JSON.stringify(body).slice(0, 500)}`);
  const actual = await sha256(result.exportPath);
  if (actual !== stated) throw new Error(`the saved archive's SHA-256 is ${actual}; the server verified ${stated}`);
  if (result.exportSha256 !== stated) throw new Error(`train --json says exportSha256 ${result.exportSha256}; the server says ${stated}`);
  if (result.exportVerified !== true) throw new Error(`train --json does not say the export was verified (exportVerified: ${result.exportVerified})`);
});

// Runs even after a failure: the server must not outlive the tier.
const stopStarted = Date.now();
let stopFailure = null;
if (server && !serverExit) {
  process.kill(-server.pid, "SIGTERM");
  const deadline = Date.now() + 30_000;
  while (!serverExit && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
  if (!serverExit) {
    stopFailure = `npm start did not stop within 30 s of SIGTERM:\n${serverOutput.slice(-2000)}`;
    process.kill(-server.pid, "SIGKILL");
  } else {
    // npm exiting is not enough: the server under it must have closed its port too.
    const health = () => fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2000) }).then(() => true, () => false);
    const until = Date.now() + 15_000;
    let answers = await health();
    while (answers && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 500));
      answers = await health();
    }
    if (answers) stopFailure = `npm start exited but ${url} still answers 15 s later: the server outlived it`;
  }
} else if (!server) stopFailure = "not run: the server was never started";
else if (!failedStep) stopFailure = `the server had already exited (${serverExit.code ?? serverExit.signal})`;
cases.push({ name: "the server stops on SIGTERM", seconds: (Date.now() - stopStarted) / 1000, failure: stopFailure });
if (stopFailure) log(`FAILED: the server stops on SIGTERM\n${stopFailure}`);

if (opts.junit) writeJunit(path.resolve(opts.junit));
const failed = cases.filter((c) => c.failure).length;
if (failed || opts.keep) {
  writeFileSync(path.join(tmp, "server.log"), serverOutput);
  log(`kept ${tmp} (server output in server.log)`);
} else rmSync(tmp, { recursive: true, force: true });
log(`${cases.length - failed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
