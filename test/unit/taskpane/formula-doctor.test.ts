// The task pane's formula doctor (src/taskpane/logic/formula-doctor.ts) and its Excel code
// (src/taskpane/office/doctor.ts), run against the Office test double in Node (test/support/office-double):
// found, repaired in batches with progress, undone, each batch under Excel on the web's 5 MB cap.
import {
  doctorBatches,
  DOCTOR_BATCH_CELLS,
  findUnrecognised,
  repairCells,
  startupOffer,
  undoRepair,
  type FormulaWriter,
} from "../../../src/taskpane/logic/formula-doctor";
import { readFdqFormulaCells, replaceFormulas } from "../../../src/taskpane/office/doctor";
import { DOCTOR_OFFERED_SETTING, officeDoctorOffers } from "../../../src/taskpane/office/document-settings";
import { loadNodeDouble, type NodeDouble, type NodeWorkbook } from "../../support/office-double/node-double";

const ARGS = '("AAPL","metrics/roic","ROIC",2023)';
const BLOOMBERG = "'C:\\Users\\ana\\AppData\\Roaming\\Bloomberg\\BloombergUI.xla'!";

describe("findUnrecognised", () => {
  it("finds each form Excel shows for a call it does not recognise, and #NAME? on a recognised call", () => {
    const cells = [
      { address: "Model!A1", formula: `=_xldudf_FDQ_DATAPOINT${ARGS}`, value: "#NAME?" },
      { address: "Model!A2", formula: `=[2]!_xldudf_FDQ_DATAPOINT${ARGS}`, value: "#NAME?" },
      { address: "Model!A3", formula: `=${BLOOMBERG}_xldudf_FDQ_DATAPOINT${ARGS}`, value: "#NAME?" },
      { address: "Model!A4", formula: `=_xludf.FDQ.DATAPOINT${ARGS}`, value: "#NAME?" },
      { address: "Model!A5", formula: `=IFERROR(fdq.datapoint${ARGS},0)`, value: 0 },
      { address: "Model!A6", formula: `=FDQ.DATAPOINT${ARGS}`, value: "#NAME?" },
      // Recognised and calculated, not an FDQ call, and an unknown FDQ name: none of the doctor's.
      { address: "Model!B1", formula: `=FDQ.DATAPOINT${ARGS}`, value: 0.14 },
      { address: "Model!B2", formula: "=NOSUCH(1)", value: "#NAME?" },
      { address: "Model!B3", formula: "=_xldudf_FDQ_NOSUCH(1)", value: "#NAME?" },
      { address: "Model!B4", formula: "", value: "#NAME?" },
    ];
    expect(findUnrecognised(cells).map((f) => [f.address, f.after])).toEqual([
      ["Model!A1", `=FDQ.DATAPOINT${ARGS}`],
      ["Model!A2", `=FDQ.DATAPOINT${ARGS}`],
      ["Model!A3", `=FDQ.DATAPOINT${ARGS}`],
      ["Model!A4", `=FDQ.DATAPOINT${ARGS}`],
      ["Model!A5", `=IFERROR(FDQ.DATAPOINT${ARGS},0)`],
      ["Model!A6", `=FDQ.DATAPOINT${ARGS}`],
    ]);
  });
});

describe("doctorBatches", () => {
  it("cuts batches at 200 cells and at 1 MB of formula text", () => {
    const short = Array.from({ length: 450 }, (_, i) => ({ address: `S!A${i + 1}`, from: "=x", to: "=y" }));
    expect(doctorBatches(short).map((b) => b.length)).toEqual([DOCTOR_BATCH_CELLS, DOCTOR_BATCH_CELLS, 50]);
    const long = "=" + "x".repeat(100_000);
    const big = Array.from({ length: 12 }, (_, i) => ({ address: `S!A${i + 1}`, from: long, to: long }));
    // 200,002 bytes a change: five fit in 1 MB.
    expect(doctorBatches(big).map((b) => b.length)).toEqual([4, 4, 4]);
  });
});

/** A workbook opened with corrupted FDQ cells (their saved #NAME?) on two sheets, beside healthy cells. */
function openedBook(corrupted: number): NodeWorkbook["cells"] {
  const cells: NonNullable<NodeWorkbook["cells"]> = {};
  for (let i = 1; i <= corrupted; i++) {
    const sheet = i % 2 === 0 ? "Model" : "'Other sheet'";
    const forms = [
      `[2]!_xldudf_FDQ_DATAPOINT`,
      `${BLOOMBERG}_xldudf_FDQ_DATAPOINT`,
      "_xldudf_FDQ_DATAPOINT",
      "fdq.datapoint",
    ];
    cells[`${sheet}!B${i}`] = {
      formula: `=${forms[i % forms.length]}("T${i}","metrics/roic","ROIC",${2000 + (i % 20)})`,
      value: "#NAME?",
    };
  }
  cells["Model!D1"] = { formula: `=FDQ.DATAPOINT${ARGS}`, value: 0.14 };
  cells["Model!D2"] = { formula: "=SUM(1,2)", value: 3 };
  return cells;
}

/** The add-in's DATAPOINT as the double runs it: the year it was asked, so a calculated cell is recognisable. */
const datapoint = (_ticker: unknown, _dataset: unknown, _name: unknown, year: unknown): number =>
  Number(year);

describe("the formula doctor against the Office double", () => {
  let office: NodeDouble;
  let uninstall: () => void;
  const write: FormulaWriter = (changes) => Excel.run((context) => replaceFormulas(context, changes));
  const check = async () => findUnrecognised(await Excel.run((context) => readFdqFormulaCells(context)));

  beforeEach(() => {
    office = loadNodeDouble({ platform: "web", cells: openedBook(210) });
    office.CustomFunctions.associate("DATAPOINT", datapoint);
    uninstall = office.install();
  });
  afterEach(() => uninstall());

  it("finds every unrecognised FDQ cell of every sheet, and no other", async () => {
    const findings = await check();
    expect(findings).toHaveLength(210);
    expect(findings.map((f) => f.address)).not.toContain("Model!D1");
    expect(findings.find((f) => f.address === "'Other sheet'!B1")).toEqual({
      address: "'Other sheet'!B1",
      before: `=${BLOOMBERG}_xldudf_FDQ_DATAPOINT("T1","metrics/roic","ROIC",2001)`,
      after: '=FDQ.DATAPOINT("T1","metrics/roic","ROIC",2001)',
      value: "#NAME?",
    });
  });

  it("enters each as FDQ.NAME with its arguments, in batches of 200 with progress, and Excel calculates it", async () => {
    const findings = await check();
    const before = office.double.syncs().length;
    const progress: [number, number][] = [];
    const run = await repairCells(findings, write, (done, total) => progress.push([done, total]));
    expect(progress).toEqual([
      [0, 210],
      [200, 210],
      [210, 210],
    ]);
    // Per batch: the sheets, the formulas now, the writes.
    expect(office.double.syncs().length - before).toBe(2 * 3);
    expect(run.skipped).toEqual([]);
    expect(run.done).toHaveLength(210);
    await office.double.settled();
    for (const f of findings) {
      const cell = office.double.cell(f.address);
      expect({ address: f.address, formula: cell?.formula }).toEqual({
        address: f.address,
        formula: f.after,
      });
      expect(cell?.value).toBe(Number(/,(\d{4})\)$/.exec(f.after)?.[1]));
    }
    expect(office.double.cell("Model!D2")).toMatchObject({ formula: "=SUM(1,2)", value: 3 });
    expect(await check()).toEqual([]);
  });

  it("leaves a cell edited since the check, and says why", async () => {
    const findings = await check();
    office.double.seed({ "Model!B2": "=SUM(4,5)" });
    const run = await repairCells(findings, write);
    expect(run.skipped).toEqual([
      { address: "Model!B2", reason: "It was edited since the check: left as it is." },
    ]);
    expect(office.double.cell("Model!B2")?.formula).toBe("=SUM(4,5)");
    expect(run.done).toHaveLength(209);
  });

  it("undoes the repair: every cell gets its formula back, except one edited since the repair", async () => {
    const findings = await check();
    const repaired = await repairCells(findings, write);
    office.double.seed({ "Model!B4": "=SUM(4,5)" });
    const progress: number[] = [];
    const undone = await undoRepair(repaired.done, write, (done) => progress.push(done));
    expect(progress).toEqual([0, 200, 210]);
    expect(undone.skipped).toEqual([
      { address: "Model!B4", reason: "It was edited since the repair: left as it is." },
    ]);
    for (const f of findings.filter((x) => x.address !== "Model!B4")) {
      expect({ address: f.address, formula: office.double.cell(f.address)?.formula }).toEqual({
        address: f.address,
        formula: f.before,
      });
    }
  });

  it("keeps every read and write under Excel on the web's 5 MB cap when the formulas are long", async () => {
    uninstall();
    const padding = "p".repeat(60_000);
    const cells: NonNullable<NodeWorkbook["cells"]> = {};
    for (let i = 1; i <= 120; i++) {
      cells[`Model!A${i}`] = {
        formula: `=[1]!_xldudf_FDQ_DATAPOINT("${padding}","roic","ROIC",2023)`,
        value: "#NAME?",
      };
    }
    office = loadNodeDouble({ platform: "web", cells });
    uninstall = office.install();
    const findings = await check();
    expect(findings).toHaveLength(120);
    const before = office.double.syncs().length;
    const run = await repairCells(findings, write);
    expect(run.done).toHaveLength(120);
    const syncs = office.double.syncs().slice(before);
    expect(syncs.filter((s) => s.failed)).toEqual([]);
    expect(Math.max(...syncs.map((s) => Math.max(s.request, s.response)))).toBeLessThan(5_000_000);
    // More than the cap went through in all: the batches were cut, not small.
    expect(syncs.reduce((n, s) => n + s.request + s.response, 0)).toBeGreaterThan(10_000_000);
  });
});

describe("startupOffer", () => {
  it("offers once per workbook: recorded in the document's settings, and the next start reads nothing", async () => {
    const office = loadNodeDouble({ platform: "web", cells: openedBook(3) });
    const uninstall = office.install();
    try {
      const read = () => Excel.run((context) => readFdqFormulaCells(context));
      const first = await startupOffer(officeDoctorOffers(), read);
      expect(first?.map((f) => f.address)).toEqual(["'Other sheet'!B1", "'Other sheet'!B3", "Model!B2"]);
      expect(office.double.documentSettings()).toEqual({ [DOCTOR_OFFERED_SETTING]: true });
      const syncs = office.double.syncs().length;
      expect(await startupOffer(officeDoctorOffers(), read)).toBeUndefined();
      expect(office.double.syncs().length).toBe(syncs);
    } finally {
      uninstall();
    }
  });

  it("records nothing for a workbook with no such cell, so it is offered when it has some", async () => {
    const office = loadNodeDouble({
      cells: { "Model!A1": { formula: `=FDQ.DATAPOINT${ARGS}`, value: 0.14 } },
    });
    const uninstall = office.install();
    try {
      const read = () => Excel.run((context) => readFdqFormulaCells(context));
      expect(await startupOffer(officeDoctorOffers(), read)).toBeUndefined();
      expect(office.double.documentSettings()).toEqual({});
    } finally {
      uninstall();
    }
  });
});

/**
 * A request context whose sync applies the batch's writes in order and stops at a cell Excel refuses (as Excel
 * does: what came before stays written), for the path the double has no such cell for.
 */
function refusingContext(cells: Map<string, string>, refused: string): Excel.RequestContext {
  let queue: (() => void)[] = [];
  const range = (address: string) => {
    let loaded = cells.get(address);
    return {
      load() {
        queue.push(() => (loaded = cells.get(address)));
        return this;
      },
      get formulas(): (string | undefined)[][] {
        return [[loaded]];
      },
      set formulas(value: (string | undefined)[][]) {
        queue.push(() => {
          if (address === refused) throw new Error("You can't change part of an array.");
          cells.set(address, value[0]?.[0] as string);
        });
      },
    };
  };
  const context = {
    workbook: {
      worksheets: {
        getItemOrNullObject: (sheet: string) => ({
          load() {
            return this;
          },
          isNullObject: false,
          getRange: (cell: string) => range(`${sheet}!${cell}`),
        }),
      },
    },
    sync: async () => {
      const run = queue;
      queue = [];
      for (const op of run) op();
    },
  };
  return context as unknown as Excel.RequestContext;
}

describe("replaceFormulas when Excel refuses a cell", () => {
  it("enters the others, counts those Excel entered before it stopped as written, and says why for that one", async () => {
    const cells = new Map([
      ["Model!A1", "=_xldudf_FDQ_RATING(1)"],
      ["Model!A2", "=_xldudf_FDQ_RATING(2)"],
      ["Model!A3", "=_xldudf_FDQ_RATING(3)"],
    ]);
    const changes = [...cells].map(([address, from]) => ({
      address,
      from,
      to: from.replace("_xldudf_FDQ_", "FDQ."),
    }));
    const outcomes = await replaceFormulas(refusingContext(cells, "Model!A2"), changes);
    expect(outcomes.sort((a, b) => a.address.localeCompare(b.address))).toEqual([
      { address: "Model!A1", status: "written", formula: "=FDQ.RATING(1)" },
      { address: "Model!A2", status: "failed", reason: "You can't change part of an array." },
      { address: "Model!A3", status: "written", formula: "=FDQ.RATING(3)" },
    ]);
    expect([...cells.values()]).toEqual(["=FDQ.RATING(1)", "=_xldudf_FDQ_RATING(2)", "=FDQ.RATING(3)"]);
  });
});
