// "Test connection" in the task pane: its messages quote the request module's errors in the pane's own words
// (the Excel hints), as the cells do.
import { testConnection } from "../../../src/taskpane/logic/connection-test";

const BASE_URL = "https://fdq.example.com/v1";
const answer = (status: number, body: string) => async () =>
  new Response(body, { status, headers: { "Content-Type": "application/json" } });

describe("testConnection", () => {
  it("words a refused key with the task pane's hint", async () => {
    const outcome = await testConnection({
      baseUrl: BASE_URL,
      apiKey: "k",
      fetch: answer(403, '{"message":"Forbidden"}'),
    });
    expect(outcome).toEqual({
      kind: "key-refused",
      message:
        "Key refused: https://fdq.example.com answered 403 (The FDQ service refused the API key (403). Check the key in the FDQ task pane.). Check the API key.",
    });
  });

  it("words an answer that is not the service's with the task pane's base URL hint", async () => {
    const outcome = await testConnection({
      baseUrl: BASE_URL,
      apiKey: "k",
      fetch: answer(404, "<html></html>"),
    });
    expect(outcome.kind).toBe("service-error");
    expect(outcome.message).toMatch(/Check the base URL in the FDQ task pane: it must end in \/v1\.$/);
  });
});
