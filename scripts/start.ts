// `npm start`: the local sandbox on 127.0.0.1:4010 and the add-in's dev server on https://localhost:3000,
// then a sideload into Excel where one can be started from here (desktop Excel on Windows or macOS
// through office-addin-debugging; Excel on the web when FDQ_EXCEL_DOCUMENT_URL names a workbook).
// Elsewhere it prints how to sideload by hand and how to try the functions with `fdq eval`, or, when the dev
// server can only serve http (no development certificate), that Excel will refuse it and how to install one.
// Ctrl+C stops everything (and removes the sideload registration).
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync } from "node:fs";
import path from "node:path";
import { startSandbox } from "../src/sandbox";
import { DEFAULT_SANDBOX_PORT } from "../src/sandbox/demo";
import { devServerScheme } from "./dev-certificates";
import { startInstructions } from "./start-instructions";

const ROOT = path.resolve(__dirname, "..");
const MANIFEST = path.join(ROOT, "manifest.xml");
const DEV_SERVER_PORT = 3000;
const NPM = process.platform === "win32" ? "npm.cmd" : "npm";

type Sideload = { kind: "desktop" } | { kind: "web"; document: string } | { kind: "none"; reason: string };

function sideloadTarget(): Sideload {
  const document = process.env.FDQ_EXCEL_DOCUMENT_URL;
  if (document) return { kind: "web", document };
  if (process.env.FDQ_NO_SIDELOAD === "1") return { kind: "none", reason: "FDQ_NO_SIDELOAD=1" };
  if (process.platform === "win32") return { kind: "desktop" };
  if (process.platform === "darwin" && existsSync("/Applications/Microsoft Excel.app"))
    return { kind: "desktop" };
  return { kind: "none", reason: `no desktop Excel on ${process.platform}` };
}

async function main(): Promise<void> {
  const sandbox = await startSandbox({ port: DEFAULT_SANDBOX_PORT, host: "127.0.0.1" });
  const scheme = devServerScheme();
  // Over http Excel refuses the add-in: sideloading it would only fail.
  const target: Sideload = scheme.https ? sideloadTarget() : { kind: "none", reason: scheme.reason };
  let devServer: ChildProcess | undefined;
  let sideloaded = false;

  if (target.kind === "none") {
    devServer = spawn(NPM, ["run", "dev-server"], { cwd: ROOT, stdio: "inherit" });
    console.log(
      startInstructions({
        sandboxUrl: sandbox.baseUrl,
        demoKey: sandbox.demoKey,
        port: DEV_SERVER_PORT,
        scheme,
        reason: target.reason,
        root: ROOT,
      }),
    );
  } else {
    // Loaded only when sideloading: office-addin-debugging pulls in Office's manifest and registry tooling.
    const { AppType, startDebugging } = await import("office-addin-debugging");
    const { OfficeApp } = await import("office-addin-manifest");
    await startDebugging(MANIFEST, {
      appType: target.kind === "web" ? AppType.Web : AppType.Desktop,
      app: OfficeApp.Excel,
      devServerCommandLine: `${NPM} run dev-server`,
      devServerPort: DEV_SERVER_PORT,
      enableDebugging: false,
      ...(target.kind === "web" ? { document: target.document } : {}),
    });
    sideloaded = true;
    console.log(
      `\nSandbox: ${sandbox.baseUrl} (key ${sandbox.demoKey}). Excel is starting with FDQ sideloaded.`,
    );
  }

  const stop = async (): Promise<void> => {
    if (sideloaded) {
      const { stopDebugging } = await import("office-addin-debugging");
      await stopDebugging(MANIFEST).catch((err: unknown) => console.error(err));
    }
    devServer?.kill();
    await sandbox.close();
    process.exit(0);
  };
  process.once("SIGINT", () => void stop());
  process.once("SIGTERM", () => void stop());
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
