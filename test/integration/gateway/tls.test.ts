// `fdq serve --cert FILE --key FILE`: the gateway speaks https itself. A self-signed certificate for
// 127.0.0.1 is made here with openssl and trusted as the only CA of each request; a missing or mismatched
// file stops the start with a message that names it, in code and as a process (exit 2).
import { execFileSync, spawn, type ChildProcess } from "node:child_process";
import https from "node:https";
import path from "node:path";
import { parseServeArgs } from "../../../src/cli/serve-options";
import { startGateway, GatewaySetupError, type RunningGateway } from "../../../src/gateway";
import { startSandbox, type RunningSandbox } from "../../../src/sandbox";
import { BIN, ROOT, runFdq } from "../cli/run-fdq";
import { findComponent, OPENSSL } from "../../support/components";
import { tempDir } from "./helpers";
import { readFileSync } from "node:fs";

const openssl = findComponent(OPENSSL);
const describeTls = openssl ? describe : describe.skip;

/** A self-signed certificate for IP 127.0.0.1 and its key, as files. */
function selfSigned(): { cert: string; key: string } {
  const dir = tempDir();
  const cert = path.join(dir, "cert.pem");
  const key = path.join(dir, "key.pem");
  execFileSync(
    "openssl",
    ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-subj", "/CN=127.0.0.1"].concat([
      "-addext",
      "subjectAltName=IP:127.0.0.1",
      "-days",
      "2",
      "-keyout",
      key,
      "-out",
      cert,
    ]),
    { stdio: "ignore" },
  );
  return { cert, key };
}

/** GET over https trusting only `ca`: status and body text. */
function httpsGet(
  url: string,
  ca: Buffer,
  headers: Record<string, string> = {},
  withHeaders = false,
): Promise<{ status: number; body: string; headers?: import("node:http").IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    https
      .get(url, { ca, headers }, (res) => {
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (body += chunk));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, body, ...(withHeaders ? { headers: res.headers } : {}) }),
        );
      })
      .on("error", reject);
  });
}

let sandbox: RunningSandbox | undefined;
let gateway: RunningGateway | undefined;
let child: ChildProcess | undefined;
afterEach(async () => {
  if (child?.pid !== undefined && child.exitCode === null) process.kill(child.pid, "SIGKILL");
  child = undefined;
  await gateway?.close();
  gateway = undefined;
  await sandbox?.close();
  sandbox = undefined;
});

describeTls("fdq serve --cert --key: https", () => {
  const files = openssl ? selfSigned() : { cert: "", key: "" };

  test("serves /healthz and /v1 over https; its URL and default public URL are https", async () => {
    sandbox = await startSandbox({ port: 0 });
    gateway = await startGateway({
      upstream: sandbox.baseUrl,
      port: 0,
      certFile: files.cert,
      keyFile: files.key,
      log: () => {},
      onWarning: () => {},
    });
    expect(gateway.url).toBe(`https://127.0.0.1:${gateway.port}`);
    expect(gateway.publicUrl).toBe(gateway.url);
    const ca = readFileSync(files.cert);
    const healthz = await httpsGet(`${gateway.url}/healthz`, ca);
    expect(healthz.status).toBe(200);
    expect(JSON.parse(healthz.body)).toEqual({
      ok: true,
      upstream: { budget: 64, perAccount: 6, inFlight: 0, waiting: 0, accounts: 0, share: 6, byAccount: [] },
    });
    const roic = await httpsGet(`${gateway.url}/v1/metrics/roic/AAPL?datapoint=ROIC&year=2023`, ca, {
      "x-api-key": sandbox.demoKey,
    });
    expect(roic.status).toBe(200);
    // Over https every answer says to stay on https (HSTS), besides nosniff.
    const health = await httpsGet(`${gateway.url}/healthz`, ca, {}, true);
    expect(health.headers?.["strict-transport-security"]).toBe("max-age=31536000");
    expect(health.headers?.["x-content-type-options"]).toBe("nosniff");
    // Not trusted without the CA: the certificate is what the client checks.
    await expect(httpsGet(`${gateway.url}/healthz`, Buffer.from(""))).rejects.toThrow();
  });

  test("a missing, lone or mismatched file is a start-up error that names it", async () => {
    const missing = path.join(tempDir(), "missing.pem");
    const start = (certFile: string | undefined, keyFile: string | undefined): Promise<RunningGateway> =>
      startGateway({ upstream: "http://127.0.0.1:9/v1", port: 0, certFile, keyFile, onWarning: () => {} });
    await expect(start(missing, files.key)).rejects.toThrow(
      new GatewaySetupError(`--cert: ${missing} cannot be read (ENOENT).`),
    );
    await expect(start(files.cert, missing)).rejects.toThrow(
      new GatewaySetupError(`--key: ${missing} cannot be read (ENOENT).`),
    );
    await expect(start(files.cert, undefined)).rejects.toThrow(
      new GatewaySetupError("--cert and --key go together: give the certificate and its private key (PEM)."),
    );
    const other = selfSigned();
    await expect(start(files.cert, other.key)).rejects.toThrow(
      `--cert ${files.cert} and --key ${other.key} are not a PEM certificate and its private key (`,
    );
  });

  test("as a process: prints its https URL and stops on SIGTERM; a missing file is exit 2", async () => {
    sandbox = await startSandbox({ port: 0 });
    const env = { ...process.env, FDQ_API_KEY: "", FDQ_BASE_URL: "" };
    const args = ["serve", "--upstream", sandbox.baseUrl, "--port", "0", "--store", tempDir()];
    const proc = spawn(process.execPath, [BIN, ...args, "--cert", files.cert, "--key", files.key], {
      cwd: ROOT,
      env,
      stdio: ["ignore", "pipe", "ignore"],
    });
    child = proc;
    const url = await new Promise<string>((resolve, reject) => {
      let out = "";
      proc.stdout?.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        if (out.includes("\n")) resolve(out.slice(0, out.indexOf("\n")));
      });
      proc.once("exit", (code) => reject(new Error(`fdq serve exited with ${code}`)));
    });
    expect(url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    expect((await httpsGet(`${url}/healthz`, readFileSync(files.cert))).status).toBe(200);
    const exited = new Promise<number | null>((resolve) => proc.once("exit", (code) => resolve(code)));
    process.kill(proc.pid as number, "SIGTERM");
    expect(await exited).toBe(0);

    const missing = path.join(tempDir(), "missing.pem");
    const refused = await runFdq([...args, "--cert", missing, "--key", files.key], env);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(`fdq: --cert: ${missing} cannot be read (ENOENT).`);
  });
});

test("the flags: --redis, --cert and --key; a --redis that is not redis:// is exit 2", async () => {
  const args = ["--upstream", "https://api.example.com/v1", "--store", "/tmp/s"];
  expect(
    parseServeArgs(
      [...args, "--redis", "redis://10.0.0.5:6379", "--cert", "/etc/fdq/c.pem", "--key", "/etc/fdq/k.pem"],
      {},
    ),
  ).toMatchObject({ redis: "redis://10.0.0.5:6379", certFile: "/etc/fdq/c.pem", keyFile: "/etc/fdq/k.pem" });
  expect(parseServeArgs(args, {})).toMatchObject({
    redis: undefined,
    certFile: undefined,
    keyFile: undefined,
  });
  const run = await runFdq([
    "serve",
    "--upstream",
    "http://127.0.0.1:9/v1",
    "--port",
    "0",
    "--redis",
    "http://x:1",
  ]);
  expect(run.code).toBe(2);
  expect(run.stderr).toContain('fdq: --redis: "http:" is not redis: or rediss:; give redis://HOST:PORT');
});
