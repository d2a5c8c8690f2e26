// After "Numbers carry their source" changes (src/taskpane/logic/value-form.ts): the FDQ cells are calculated
// again when today's cache answers all their requests (a full calculation, no request), and not when it does not.
import { MemoryStorage, type FdqClient } from "../../../src/api";
import { recalculateForm } from "../../../src/taskpane/logic/value-form";
import { FakeFetch, makeClient } from "../api/fake-fetch";
import { fakeWorkbook } from "./workbook-fake";

const clients: FdqClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

async function setUp() {
  const fake = new FakeFetch();
  const client = makeClient(fake, { billing: "per-datapoint", storage: new MemoryStorage() });
  clients.push(client);
  await client.ready();
  const workbook = fakeWorkbook(client, {
    "Sheet1!A1": '=FDQ.DATAPOINT("AAPL","metrics/roic","ROIC",2022)',
    "Sheet1!A2": '=FDQ.DATAPOINT("MSFT","metrics/roic","ROIC",2022)',
  });
  return { fake, client, workbook };
}

describe("the FDQ cells after numbers-with-their-source changes", () => {
  it("calculates them again at once when today's cache holds every request: one full calculation, no request", async () => {
    const { fake, client, workbook } = await setUp();
    await workbook.calculateFull();
    await workbook.settled();
    const sent = fake.count;
    const before = workbook.calculations;
    expect(await recalculateForm({ client, workbook }, true)).toBe(
      "Saved. Excel calculated 2 FDQ cells again to return numbers with their source, from today's cache (no request).",
    );
    await workbook.settled();
    expect(workbook.calculations - before).toBe(1);
    expect(fake.count).toBe(sent);
  });

  it("calculates nothing when a request is not in today's cache, and says the next refresh will", async () => {
    const { fake, client, workbook } = await setUp();
    expect(await recalculateForm({ client, workbook }, false)).toBe(
      "Saved. FDQ cells return plain numbers at the next refresh: 2 of their requests are not in today's cache, so calculating them now would spend units.",
    );
    expect(workbook.calculations).toBe(0);
    expect(fake.count).toBe(0);
  });

  it("says when there is no client yet", async () => {
    const { workbook } = await setUp();
    expect(await recalculateForm({ client: undefined, workbook }, true)).toBe(
      "Saved. FDQ cells return numbers with their source once the pane is connected and they are calculated.",
    );
    expect(workbook.calculations).toBe(0);
  });
});
