// jest globalTeardown of the integration project: removes the fdq bundle test/support/fdq-bundle.ts made for the run.
import { teardown } from "./fdq-bundle";

export default teardown;
