// jest globalTeardown of the browser project: removes the page test/support/browser-page.ts built for the run.
import { teardown } from "./browser-page";

export default teardown;
