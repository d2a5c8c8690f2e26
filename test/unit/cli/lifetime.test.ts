// fdq stops by itself when npm started it and the process that started it is gone (src/cli/lifetime.ts); the
// processes themselves are tried in test/integration/cli/stop.test.ts.
import { startedByNpm, stopWithParent } from "../../../src/cli/lifetime";

const NPM = { npm_lifecycle_event: "npx" };

/** A parent process id that changes to 1 (init) when `gone()` is called. */
function parent(pid: number): { id: () => number; gone: () => void } {
  let current = pid;
  return { id: () => current, gone: () => (current = 1) };
}

// The watch is a timer: jest's fake timers move its clock, so the tests wait for no real time.
beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());
const wait = (ms: number): void => void jest.advanceTimersByTime(ms);

describe("stopWithParent", () => {
  it("knows npm started the process by npm_lifecycle_event (npx, npm exec, npm run)", () => {
    expect(startedByNpm({ npm_lifecycle_event: "npx" })).toBe(true);
    expect(startedByNpm({ npm_lifecycle_event: "gateway" })).toBe(true);
    expect(startedByNpm({})).toBe(false);
    expect(startedByNpm({ npm_lifecycle_event: "" })).toBe(false);
  });

  it("stops once, when the parent that started it is gone", () => {
    const p = parent(4242);
    let stops = 0;
    const end = stopWithParent({ env: NPM, intervalMs: 5, parentId: p.id, onParentGone: () => stops++ });
    wait(30);
    expect(stops).toBe(0);
    p.gone();
    wait(30);
    expect(stops).toBe(1);
    wait(30);
    expect(stops).toBe(1);
    end();
  });

  it("does not watch when npm did not start it (nohup node bin/fdq.js serve outlives its shell)", () => {
    const p = parent(4242);
    let stops = 0;
    stopWithParent({ env: {}, intervalMs: 5, parentId: p.id, onParentGone: () => stops++ });
    p.gone();
    wait(30);
    expect(stops).toBe(0);
  });

  it("does not watch a process started by init", () => {
    const p = parent(1);
    let stops = 0;
    stopWithParent({ env: NPM, intervalMs: 5, parentId: p.id, onParentGone: () => stops++ });
    wait(30);
    expect(stops).toBe(0);
  });

  it("ends the watch when asked", () => {
    const p = parent(4242);
    let stops = 0;
    const end = stopWithParent({ env: NPM, intervalMs: 5, parentId: p.id, onParentGone: () => stops++ });
    end();
    p.gone();
    wait(30);
    expect(stops).toBe(0);
  });
});
