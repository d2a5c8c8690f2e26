// What `npm start` prints when it does not sideload by itself: where the sandbox and the add-in are, and how to
// put the add-in into Excel. It tells the truth about the certificate: without Office's development certificate
// the dev server serves http, which Excel refuses, so it then says so and gives the one command that installs it
// instead of a manifest to upload.
import { APP_PACKAGE_FILE } from "../src/manifest";
import { INSTALL_CERTIFICATE } from "./dev-certificates";

export interface StartState {
  /** The sandbox's base URL and its demonstration key. */
  readonly sandboxUrl: string;
  readonly demoKey: string;
  /** The dev server's port (3000). */
  readonly port: number;
  /** How the dev server serves (scripts/dev-certificates.ts). */
  readonly scheme: { https: true } | { https: false; reason: string };
  /** Why Excel was not started from here. */
  readonly reason: string;
  /** The repository's root, where manifest.xml and manifest.json are. */
  readonly root: string;
}

const FORMULA = '=FDQ.DATAPOINT("AAPL","metrics/roic","ROIC",2023)';

export function startInstructions(s: StartState): string {
  const without = `
Without Excel, try the same functions on this sandbox:
  npx fdq eval '${FORMULA}'
  npx fdq eval -f examples/model.txt --stats

Ctrl+C stops the sandbox and the dev server.
`;
  if (!s.scheme.https) {
    return `
FDQ for Excel is running:
  sandbox     ${s.sandboxUrl}  (API key: ${s.demoKey}; it only unlocks this sandbox)
  add-in      http://localhost:${s.port}/taskpane.html  (dev server, over http: ${s.scheme.reason})

Excel will NOT load the add-in from here: it loads add-ins only over https, and the manifests name
https://localhost:${s.port}. Install Office's development certificate once (it asks for your password to trust
it), then run npm start again:
  ${INSTALL_CERTIFICATE}
${without}`;
  }
  return `
FDQ for Excel is running:
  sandbox     ${s.sandboxUrl}  (API key: ${s.demoKey}; it only unlocks this sandbox)
  add-in      https://localhost:${s.port}/taskpane.html  (dev server)

Excel was not started (${s.reason}). To sideload by hand (docs/sideloading.md):
  - Excel on the web, or Excel 2016 to 2021 and Excel on a Mac: the add-in only manifest
      ${s.root}/manifest.xml
    (Excel on the web: Home > Add-ins > More Add-ins > Upload My Add-in; or run again with
    FDQ_EXCEL_DOCUMENT_URL=<workbook URL> to sideload automatically)
  - Microsoft 365 (Windows, the web): the unified manifest ${s.root}/manifest.json in its app package
      https://localhost:${s.port}/${APP_PACKAGE_FILE}
    in Teams: Apps > Manage your apps > Upload an app > Upload a custom app.
  Then open the FDQ task pane (Data tab), set the base URL ${s.sandboxUrl} and the key above,
  and type ${FORMULA} in a cell.
${without}`;
}
