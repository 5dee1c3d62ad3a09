/**
 * The documented reverse-proxy setup, for real: Debian's nginx terminates TLS with the
 * config in docs/examples/nginx-trainyard.conf (only its ports and certificate paths
 * changed) in front of a Trainyard server started as the docs say. Signing in, a
 * mutation, live events and the sign-in limit all go through the proxy.
 */
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import https from "node:https";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli, freePort, REPO, startServer, tempHome, type ServerProcess } from "@/tests/support/server-process";

const NAME = "ml.example.com";
const PASSWORD = "correct horse battery";

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

describe("Trainyard behind nginx with HTTPS (docs/examples/nginx-trainyard.conf)", () => {
  let server: ServerProcess;
  let nginx: ChildProcess;
  let nginxLog = "";
  let port = 0;
  let origin = "";

  function request(method: string, pathName: string, headers: Record<string, string> = {}, body?: string): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const req = https.request(
        { host: "127.0.0.1", port, servername: NAME, rejectUnauthorized: false, method, path: pathName, headers: { host: `${NAME}:${port}`, ...headers } },
        (res) => {
          let text = "";
          res.setEncoding("utf8");
          res.on("data", (c: string) => (text += c));
          res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }));
        },
      );
      req.on("error", reject);
      req.end(body);
    });
  }

  const login = (password: string, extra: Record<string, string> = {}) =>
    request("POST", "/api/auth/login", { "content-type": "application/json", origin, ...extra }, JSON.stringify({ password }));

  beforeAll(async () => {
    const dir = tempHome("ty-nginx-");
    port = await freePort();
    origin = `https://${NAME}:${port}`;
    const home = tempHome();
    expect(cli(["owner", "set-password"], { TRAINYARD_HOME: home }, `${PASSWORD}\n`).status).toBe(0);
    server = await startServer({ home, env: { TRAINYARD_PUBLIC_ORIGIN: origin, TRAINYARD_TRUSTED_PROXY: "127.0.0.1" } });

    execFileSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", `/CN=${NAME}`, "-keyout", path.join(dir, "key.pem"), "-out", path.join(dir, "cert.pem")], { stdio: "ignore" });
    const site = readFileSync(path.join(REPO, "docs/examples/nginx-trainyard.conf"), "utf8")
      .replace("listen 443 ssl;", `listen 127.0.0.1:${port} ssl;`)
      .replace(/ssl_certificate\s+\S+;/, `ssl_certificate ${path.join(dir, "cert.pem")};`)
      .replace(/ssl_certificate_key\s+\S+;/, `ssl_certificate_key ${path.join(dir, "key.pem")};`)
      .replace("proxy_pass http://127.0.0.1:3000;", `proxy_pass http://127.0.0.1:${server.port};`);
    expect(site).toContain(`proxy_pass http://127.0.0.1:${server.port};`);
    writeFileSync(path.join(dir, "site.conf"), site);
    // The wrapper a distribution's nginx.conf provides, pointed at the temp folder.
    writeFileSync(
      path.join(dir, "nginx.conf"),
      [
        "user root;",
        "worker_processes 1;",
        `pid ${path.join(dir, "nginx.pid")};`,
        `error_log ${path.join(dir, "error.log")} info;`,
        "events { worker_connections 64; }",
        "http {",
        `  access_log ${path.join(dir, "access.log")};`,
        ...["client_body", "proxy", "fastcgi", "uwsgi", "scgi"].map((t) => `  ${t}_temp_path ${path.join(dir, `${t}-temp`)};`),
        `  include ${path.join(dir, "site.conf")};`,
        "}",
      ].join("\n"),
    );
    nginx = spawn("/usr/sbin/nginx", ["-p", dir, "-c", path.join(dir, "nginx.conf"), "-g", "daemon off;"], { stdio: ["ignore", "pipe", "pipe"] });
    nginx.stdout!.on("data", (d) => (nginxLog += d));
    nginx.stderr!.on("data", (d) => (nginxLog += d));
    const deadline = Date.now() + 20_000;
    for (;;) {
      try {
        await request("GET", "/login");
        break;
      } catch (err) {
        if (Date.now() > deadline || nginx.exitCode !== null) throw new Error(`nginx did not start: ${String(err)}\n${nginxLog}`);
        await new Promise((r) => setTimeout(r, 200));
      }
    }
  });
  afterAll(async () => {
    nginx?.kill("SIGQUIT");
    await server?.stop();
  });

  it("sends an anonymous page visit to sign-in, and signs in with a Secure cookie", async () => {
    const page = await request("GET", "/projects");
    expect(page.status).toBe(303);
    expect(page.headers.location).toMatch(/^\/login\?next=/);
    const ok = await login(PASSWORD);
    expect(ok.status, ok.body).toBe(200);
    const cookie = String(ok.headers["set-cookie"] ?? "");
    expect(cookie).toMatch(/; Secure/);
    expect(cookie).toMatch(/HttpOnly/);
  });

  it("accepts a signed-in mutation from the public origin and delivers its live event through the proxy", async () => {
    const cookie = String((await login(PASSWORD)).headers["set-cookie"]).split(";")[0]!;
    const events = await new Promise<{ res: import("node:http").IncomingMessage }>((resolve, reject) => {
      https
        .get({ host: "127.0.0.1", port, servername: NAME, rejectUnauthorized: false, path: "/api/events?topics=projects", headers: { host: `${NAME}:${port}`, cookie } }, (res) => resolve({ res }))
        .on("error", reject);
    });
    expect(events.res.statusCode).toBe(200);
    let text = "";
    const arrived = new Promise<void>((resolve) => {
      events.res.on("data", (c: Buffer) => {
        text += c.toString("utf8");
        if (text.includes("project.changed")) resolve();
      });
    });
    await new Promise((r) => setTimeout(r, 300)); // the stream is subscribed once its first bytes arrive
    const created = await request("POST", "/api/trpc/projects.create", { "content-type": "application/json", origin, cookie }, JSON.stringify({ json: { name: "Through the proxy" } }));
    expect(created.status, created.body).toBe(200);
    await arrived;
    events.res.destroy();
    expect(text).toMatch(/event: project.changed/);
    for (const foreign of [`http://${NAME}:${port}`, `https://${NAME}:${port + 1}`, "https://evil.example"]) {
      const refused = await request("POST", "/api/trpc/projects.create", { "content-type": "application/json", origin: foreign, cookie }, JSON.stringify({ json: { name: "Other origin" } }));
      expect(refused.status, foreign).toBe(403);
    }
  });

  it("limits sign-ins by the address the proxy saw, which a client cannot rewrite", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 7; i++) statuses.push((await login("wrong password", { "x-forwarded-for": `198.51.100.${i}` })).status);
    expect(statuses.slice(0, 5).every((s) => s === 401)).toBe(true);
    expect(statuses.at(-1)).toBe(429);
  });
});
