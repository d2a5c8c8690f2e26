// A datapoint or dataset the catalog does not list: FDQ.DATAPOINT, FDQ.SERIES and FDQ.DATASET answer #VALUE!
// naming the argument, with the nearest catalog names ("Did you mean ROIC?"), and send no request.
import { FdqClient } from "../../../src/api";
import { describeFailure } from "../../../src/functions/errors";
import { dataset, datapoint, series } from "../../../src/functions/impl";
import { editDistance, nearestNames } from "../../../src/catalog/nearest";
import { FakeFetch, makeClient } from "../api/fake-fetch";

let sent = 0;
const client = new FdqClient({
  baseUrl: "http://127.0.0.1:4010/v1",
  apiKey: "k",
  fetch: async () => {
    sent++;
    throw new TypeError("no request may be sent");
  },
});

beforeEach(() => {
  sent = 0;
});

const cell = (p: Promise<unknown>) => p.then((value) => ({ value }), describeFailure);

describe("did you mean: a datapoint the dataset does not list", () => {
  it("names the argument and the nearest name of the dataset, sending nothing", async () => {
    expect(
      await cell(datapoint(client, { ticker: "AAPL", dataset: "metrics/roic", name: "ROCI", year: 2023 })),
    ).toEqual({
      error: "#VALUE!",
      message: 'datapoint "ROCI" is not in dataset metrics/roic. Did you mean ROIC?',
    });
    expect(
      await cell(datapoint(client, { ticker: "AAPL", dataset: "roic", name: "nopta", year: "FY0" })),
    ).toEqual({
      error: "#VALUE!",
      message: 'datapoint "nopta" is not in dataset metrics/roic. Did you mean NOPAT?',
    });
    expect(sent).toBe(0);
  });

  it("says which datasets list a name asked of another one", async () => {
    expect(
      await cell(
        datapoint(client, { ticker: "AAPL", dataset: "net-income-to-nopat", name: "ROIC", year: 2023 }),
      ),
    ).toEqual({
      error: "#VALUE!",
      message:
        'datapoint "ROIC" is not in dataset reconciliation/net-income-to-nopat. It is in metrics/roic and screens/enhanced.',
    });
    expect(sent).toBe(0);
  });

  it("FDQ.SERIES gives the same message once, for the call", async () => {
    const out = await cell(
      series(
        client,
        { ticker: "AAPL", dataset: "roic", name: "ROCI", from_year: 2019, to_year: 2023 },
        (e) => e,
      ),
    );
    expect(out).toEqual({
      error: "#VALUE!",
      message: 'datapoint "ROCI" is not in dataset metrics/roic. Did you mean ROIC?',
    });
    expect(sent).toBe(0);
  });

  it("says nothing more of a name near none", async () => {
    expect(
      await cell(datapoint(client, { ticker: "AAPL", dataset: "roic", name: "NO_SUCH", year: 2023 })),
    ).toEqual({
      error: "#VALUE!",
      message: 'datapoint "NO_SUCH" is not in dataset metrics/roic.',
    });
  });
});

describe("did you mean: a name a cut-off catalog cannot rule out", () => {
  it("is asked of the service; its DataPointNotFound (#N/A) names the dataset's nearest listed names", async () => {
    const fake = new FakeFetch();
    const asked = makeClient(fake);
    const request = { ticker: "AAPL", dataset: "adjusted", name: "ACCOUNTS_PAYBLE", year: 2023 };
    const message = "The requested datapoint was not found. Did you mean ACCOUNTS_PAYABLE?";
    expect(await cell(datapoint(asked, request))).toEqual({ error: "#N/A", message });
    // Remembered for the day: the same words again, without a request.
    expect(await cell(datapoint(asked, request))).toEqual({ error: "#N/A", message });
    expect(fake.count).toBe(1);
    expect(await cell(datapoint(asked, { ...request, name: "NOTHING_LIKE_IT" }))).toEqual({
      error: "#N/A",
      message: "The requested datapoint was not found.",
    });
    await asked.close();
  });
});

describe("did you mean: a dataset the catalog does not know", () => {
  it("puts the nearest datasets before the list of all, sending nothing", async () => {
    const out = await cell(dataset(client, { ticker: "AAPL", dataset: "metrics/roci", year: 2023 }));
    expect(out).toMatchObject({ error: "#VALUE!" });
    expect((out as { message: string }).message).toMatch(
      /^dataset "metrics\/roci" is not known\. Did you mean metrics\/roic\? Use one of: reconciliation\//,
    );
    const word = await cell(
      datapoint(client, { ticker: "AAPL", dataset: "ebitda", name: "EBITDA", year: 2023 }),
    );
    expect((word as { message: string }).message).toMatch(
      /^dataset "ebitda" is not known\. Did you mean reconciliation\/revenue-to-ebitda\? Use one of: /,
    );
    expect(sent).toBe(0);
  });
});

describe("the nearness of names", () => {
  it("counts a swap of two neighbours as one edit", () => {
    expect([
      editDistance("ROCI", "ROIC"),
      editDistance("NOPTA", "NOPAT"),
      editDistance("ROIC", "NOPAT"),
    ]).toEqual([1, 1, 4]);
  });

  it("allows one edit in four characters, best first, at most three", () => {
    expect(nearestNames("ROCI", ["ROIC", "NOPAT", "ROIC_GAAP"])).toEqual(["ROIC"]);
    expect(nearestNames("ROI", ["ROIC", "ROE", "ROA", "ROIC_GAAP"])).toEqual(["ROIC", "ROE", "ROA"]);
    expect(nearestNames("xyz", ["ROIC"])).toEqual([]);
  });
});
