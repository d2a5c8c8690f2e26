// The card's key metrics in the pane (src/taskpane/logic/card-metrics.ts): each priced per card per refresh
// day by the request planner before it is added, refused with a reason when it cannot be, reordered in place.
// A client over the fake service (nothing is sent: pricing plans requests only).
import { MemoryStorage, type BillingModel, type FdqClient } from "../../../src/api";
import { MAX_CARD_METRICS, type CardMetric } from "../../../src/functions/value-options";
import {
  cardMetricsUnits,
  moveMetric,
  offerMetric,
  unitsPerCard,
} from "../../../src/taskpane/logic/card-metrics";
import { FakeFetch, makeClient } from "../api/fake-fetch";

const clients: FdqClient[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close()));
});

async function clientFor(billing: BillingModel): Promise<{ client: FdqClient; fake: FakeFetch }> {
  const fake = new FakeFetch();
  const client = makeClient(fake, { billing, storage: new MemoryStorage() });
  clients.push(client);
  await client.ready();
  return { client, fake };
}

const ROIC_FY0: CardMetric = { dataset: "metrics/roic", name: "ROIC", period: "FY0" };
const NOPAT_FY0: CardMetric = { dataset: "metrics/roic", name: "NOPAT", period: "FY0" };
const ROIC_FY1: CardMetric = { dataset: "metrics/roic", name: "ROIC", period: "FY-1" };

describe("pricing card metrics", () => {
  it("prices a metric at the latest period at 1 unit per card per refresh day (its datapoint), sending nothing", async () => {
    const { client, fake } = await clientFor("per-datapoint");
    expect(await offerMetric(client, [], ROIC_FY0)).toEqual({
      ok: true,
      metric: ROIC_FY0,
      units: 1,
      total: 1,
    });
    expect(fake.count).toBe(0);
  });

  it("prices a metric of an earlier period with the search for the latest period: 2 units alone, 1 beside a metric at the latest", async () => {
    const { client } = await clientFor("per-datapoint");
    expect(await offerMetric(client, [], ROIC_FY1)).toMatchObject({ ok: true, units: 2, total: 2 });
    expect(await offerMetric(client, [NOPAT_FY0], ROIC_FY1)).toMatchObject({ ok: true, units: 1, total: 2 });
  });

  it("prices per request on an account billed per request: metrics of one dataset and period share one request", async () => {
    const { client } = await clientFor("per-request");
    expect(await cardMetricsUnits(client, [ROIC_FY0])).toBe(1);
    expect(await offerMetric(client, [ROIC_FY0], NOPAT_FY0)).toMatchObject({ ok: true, units: 0, total: 1 });
  });

  it("says the price in words", () => {
    expect(unitsPerCard(1)).toBe("1 unit per card per refresh day");
    expect(unitsPerCard(12)).toBe("12 units per card per refresh day");
  });
});

describe("choosing card metrics", () => {
  it("refuses a metric on the card already, a period a card does not take, and a 13th metric", async () => {
    const { client } = await clientFor("per-datapoint");
    expect(await offerMetric(client, [ROIC_FY0], { ...ROIC_FY0, dataset: "roic" })).toEqual({
      ok: false,
      reason: "ROIC FY0 is on the card already.",
    });
    expect(await offerMetric(client, [], { ...ROIC_FY0, period: "FY2023" })).toEqual({
      ok: false,
      reason: "FY2023 is not a card period: choose FY0, FY-1, FQ0, LTM.",
    });
    const full = Array.from({ length: MAX_CARD_METRICS }, (_, i) => ({ ...ROIC_FY0, name: `N${i}` }));
    expect(await offerMetric(client, full, ROIC_FY1)).toEqual({
      ok: false,
      reason: "A card holds at most 12 metrics: remove one first.",
    });
  });

  it("refuses a datapoint its dataset does not hold, with the request module's message", async () => {
    const { client } = await clientFor("per-datapoint");
    const offer = await offerMetric(client, [], { dataset: "metrics/roic", name: "NOSUCH", period: "FY0" });
    expect(offer).toEqual({ ok: false, reason: 'datapoint "NOSUCH" is not in dataset metrics/roic.' });
  });

  it("moves a metric up or down, and leaves the list as it is at either end", () => {
    const list = [ROIC_FY0, NOPAT_FY0, ROIC_FY1];
    expect(moveMetric(list, 2, -1)).toEqual([ROIC_FY0, ROIC_FY1, NOPAT_FY0]);
    expect(moveMetric(list, 0, 1)).toEqual([NOPAT_FY0, ROIC_FY0, ROIC_FY1]);
    expect(moveMetric(list, 0, -1)).toEqual(list);
    expect(moveMetric(list, 2, 1)).toEqual(list);
  });
});
