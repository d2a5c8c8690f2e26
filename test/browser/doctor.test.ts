// The formula doctor in the task pane (headless Chromium, the Office double, the sandbox): a workbook opened with
// FDQ cells Excel no longer recognises (saved #NAME? values, each corrupted form) is offered the repair at start,
// the doctor shows their count and a preview, repairs them (the cells calculate again) and undoes the repair.
// Screenshots of the doctor, light and dark, land in test/artifacts.
import { copyFileSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { DOCTOR_OFFERED_SETTING } from "../../src/taskpane/office/document-settings";
import { callDouble, settled, useBrowserRig, type OpenedWorkbook } from "./harness";
import { artifact } from "./pane-steps";

jest.setTimeout(60_000);

const rig = useBrowserRig();

/** The doctor's card at the pane's width, under test/artifacts (copied to docs/images with FDQ_UPDATE_DOCS=1). */
async function screenshotDoctor(page: Parameters<typeof settled>[0], theme: "light" | "dark"): Promise<void> {
  const file = artifact(`taskpane-doctor-${theme}.png`);
  await page.getByLabel("Formula doctor").screenshot({ path: file });
  if (process.env.FDQ_UPDATE_DOCS === "1") {
    const images = join(__dirname, "../../docs/images");
    mkdirSync(images, { recursive: true });
    copyFileSync(file, join(images, `doctor-${theme}.png`));
  }
}

const ROIC = '"metrics/roic","ROIC"';
const BLOOMBERG = "'C:\\Users\\ana\\AppData\\Roaming\\Bloomberg\\BloombergUI.xla'!";

/** The corrupted cells as Excel shows them when the workbook opens, and what the doctor enters. */
const CORRUPTED: Record<string, { before: string; after: string }> = {
  "Model!B2": {
    before: `=[2]!_xldudf_FDQ_DATAPOINT($A2,${ROIC},2023)`,
    after: `=FDQ.DATAPOINT($A2,${ROIC},2023)`,
  },
  "Model!B3": {
    before: `=${BLOOMBERG}_xldudf_FDQ_DATAPOINT($A3,${ROIC},2023)`,
    after: `=FDQ.DATAPOINT($A3,${ROIC},2023)`,
  },
  "Model!B4": {
    before: `=_xludf.FDQ.DATAPOINT($A4,${ROIC},2023)`,
    after: `=FDQ.DATAPOINT($A4,${ROIC},2023)`,
  },
  "Model!B5": { before: `=fdq.datapoint("AAPL",${ROIC},2022)`, after: `=FDQ.DATAPOINT("AAPL",${ROIC},2022)` },
  // Saved while the add-in was not loaded: the text is right, Excel never bound it.
  "Model!B6": { before: `=FDQ.DATAPOINT("MSFT",${ROIC},2022)`, after: `=FDQ.DATAPOINT("MSFT",${ROIC},2022)` },
  "Model!B7": {
    before: `=_xldudf_FDQ_DATAPOINT("NFLX",${ROIC},2022)`,
    after: `=FDQ.DATAPOINT("NFLX",${ROIC},2022)`,
  },
};

const WORKBOOK: Omit<OpenedWorkbook, "documentSettings"> = {
  cells: {
    "Model!A2": { formula: "AAPL", value: "AAPL" },
    "Model!A3": { formula: "MSFT", value: "MSFT" },
    "Model!A4": { formula: "NFLX", value: "NFLX" },
    ...Object.fromEntries(
      Object.entries(CORRUPTED).map(([a, c]) => [a, { formula: c.before, value: "#NAME?" }]),
    ),
    // A recognised FDQ cell with its value: not the doctor's.
    "Model!C2": { formula: `=FDQ.DATAPOINT("AAPL",${ROIC},2021)`, value: 0.12 },
  },
};

const cellOf = (page: Parameters<typeof settled>[0], address: string) =>
  callDouble<{ formula: string; value: unknown } | null>(page, "cell", address);

describe("the formula doctor", () => {
  it("offers the repair at start, shows the count and a preview, repairs (the cells calculate) and undoes", async () => {
    const { context, page } = await rig.openConnected({ workbook: WORKBOOK });
    const offer = page.getByTestId("doctor-offer");
    await offer.getByText("6 FDQ cells are not recognised by Excel (#NAME?)").waitFor();
    // Offered once per workbook: the workbook's settings remember it.
    expect(await callDouble<Record<string, unknown>>(page, "documentSettings")).toMatchObject({
      [DOCTOR_OFFERED_SETTING]: true,
    });

    await page.getByTestId("doctor-review").click();
    await page.getByRole("tab", { name: "Workbook", selected: true }).waitFor();
    expect(await offer.count()).toBe(0);
    await expect(page.getByTestId("doctor-count").textContent()).resolves.toMatch(
      /^6 FDQ cells are not recognised by Excel \(#NAME\?\)\./,
    );
    const preview = page.getByTestId("doctor-preview");
    expect(await preview.count()).toBe(5);
    await expect(preview.first().textContent()).resolves.toBe(
      `Model!B2${CORRUPTED["Model!B2"]?.before}→\u00a0${CORRUPTED["Model!B2"]?.after}`,
    );
    await screenshotDoctor(page, "light");

    await page.getByTestId("doctor-repair").click();
    await expect(page.getByTestId("doctor-summary").textContent()).resolves.toBe("Repaired 6 cells.");
    await settled(page);
    const year = (after: string): number => Number(/,(\d{4})\)$/.exec(after)?.[1]);
    const ticker = async (address: string, after: string): Promise<string> => {
      const literal = /\("([A-Z]+)"/.exec(after)?.[1];
      if (literal) return literal;
      return String((await cellOf(page, `Model!A${address.slice(-1)}`))?.value);
    };
    for (const [address, c] of Object.entries(CORRUPTED)) {
      const expected = await rig.reference.datapoint({
        ticker: await ticker(address, c.after),
        dataset: "metrics/roic",
        name: "ROIC",
        year: year(c.after),
      });
      expect({ address, cell: await cellOf(page, address) }).toMatchObject({
        address,
        cell: { formula: c.after, value: expected.value },
      });
    }
    await expect(page.getByTestId("doctor-count").textContent()).resolves.toBe(
      "Excel recognises every FDQ formula.",
    );

    await page.getByTestId("doctor-undo").click();
    await expect(page.getByTestId("doctor-summary").textContent()).resolves.toBe("Restored 6 cells.");
    for (const [address, c] of Object.entries(CORRUPTED)) {
      expect({ address, formula: (await cellOf(page, address))?.formula }).toEqual({
        address,
        formula: c.before,
      });
    }
    await context.close();
  });

  it("shows the doctor in the dark theme (screenshot)", async () => {
    const { context, page } = await rig.openConnected({ theme: "dark", workbook: WORKBOOK });
    await page.getByTestId("doctor-review").click();
    await page.getByTestId("doctor-count").waitFor();
    await screenshotDoctor(page, "dark");
    await context.close();
  });
});
