// Many client processes at once through one gateway: ten `fdq eval` processes evaluating the same model
// file at the same moment cost the FDQ service exactly what one process alone costs (the gateway
// deduplicates identical requests in flight and keeps the day's answers), and every process prints the
// same answers as the one alone.
import { startRig, type Rig } from "./helpers";
import { evalFile, MODEL_FORMULAS, modelFile } from "./model";

const PROCESSES = 10;

let rig: Rig | undefined;
afterEach(async () => {
  await rig?.close();
  rig = undefined;
});

test("ten fdq eval processes at once cost the service what one process costs, and print the same", async () => {
  const file = modelFile();

  rig = await startRig();
  const single = await evalFile(rig.gateway.url, rig.sandbox.demoKey, file);
  expect(single.code).toBe(0);
  expect(single.stderr).toBe("");
  const singleRequests = rig.upstream();
  expect(singleRequests).toBeGreaterThan(0);
  // Every formula has its line, and the model's numbers are there.
  expect(single.stdout.split("\n").filter((l) => l.startsWith("=FDQ.")).length).toBe(MODEL_FORMULAS);
  await rig.close();

  rig = await startRig();
  const r = rig;
  // All ten launched before any is awaited.
  const runs = Array.from({ length: PROCESSES }, () => evalFile(r.gateway.url, r.sandbox.demoKey, file));
  const outs = await Promise.all(runs);
  expect(outs.map((o) => o.code)).toEqual(Array(PROCESSES).fill(0));
  for (const out of outs) {
    expect(out.stderr).toBe("");
    expect(out.stdout).toBe(single.stdout);
  }
  expect(rig.upstream()).toBe(singleRequests);
}, 60_000);
