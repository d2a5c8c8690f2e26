// The pane plans a call Excel array-lifts over a range, in the built page against the Office double:
// Estimate cost counts one request per cell of the spill, and Explain shows "N calls (rows x columns)"
// with the first calls' URLs.
import {
  calculatedToday,
  callDouble,
  savedSettings,
  openPane,
  useBrowserRig,
  waitForConsole,
} from "./harness";

jest.setTimeout(60_000);

const rig = useBrowserRig();

const constant = (value: string | number) => ({ formula: "", value });

it("estimates and explains =FDQ.DATAPOINT($A2:$A4,...,B$1) as three calls, before any is made", async () => {
  const pane = await openPane(rig.browser, rig.site, {
    storage: savedSettings(rig.sandbox),
    workbook: {
      // Saved without calculation today: nothing is cached yet, so every call is still to be paid.
      documentSettings: calculatedToday(),
      cells: {
        "Sheet1!A2": constant("AAPL"),
        "Sheet1!A3": constant("MSFT"),
        "Sheet1!A4": constant("NFLX"),
        "Sheet1!B1": constant(2022),
        "Sheet1!B2": { formula: '=FDQ.DATAPOINT($A2:$A4,"metrics/roic","ROIC",B$1)', value: 0 },
      },
    },
  });
  const { context, page } = pane;
  await waitForConsole(pane, "FDQ new-day check: current");

  await page.getByRole("tab", { name: "Workbook" }).click();
  await page.getByTestId("estimate-button").click();
  await expect(page.getByTestId("estimate-cells").textContent()).resolves.toBe("1 FDQ cell found");
  // The three calls and the day's stock coverage list they are checked against, asked first: the most they
  // cost, until the list says which tickers it covers.
  await expect(page.getByTestId("estimate-requests").textContent()).resolves.toBe(
    "Up to 4 requests needed (at most 4 units, with the day's ticker coverage list: asked first, it spares the requests of a ticker it does not list)",
  );
  await expect(page.getByTestId("estimate-cached").textContent()).resolves.toBe(
    "0 of 1 cells already cached",
  );

  await callDouble(page, "select", "Sheet1!B2");
  await page.getByRole("tab", { name: "Cell" }).click();
  await expect(page.getByTestId("explain-lifted").textContent()).resolves.toBe(
    "3 calls (3 rows x 1 column): Excel runs FDQ.DATAPOINT once per cell of its ranges and spills the results",
  );
  // The first price is the lifted call's total (the coverage list with it); each shown call has its own below.
  await expect(page.getByTestId("explain-price").first().textContent()).resolves.toBe(
    "up to 4 units for up to 4 requests; not cached today: up to 4 units to spend on the next calculation.",
  );
  await expect(page.getByTestId("explain-url").allTextContents()).resolves.toEqual(
    ["AAPL", "MSFT", "NFLX"].map(
      (t) => `GET ${rig.sandbox.baseUrl}/metrics/roic/${t}?datapoint=ROIC&year=2022`,
    ),
  );
  // Planning sent nothing to the service.
  expect(pane.requests.filter((u) => u.includes("/metrics/"))).toEqual([]);
  await context.close();
});
