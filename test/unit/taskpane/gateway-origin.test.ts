// "This gateway": the pane tells `fdq serve` (GET /healthz answering {"ok":true}) from any other server.
import { detectGateway, gatewayPresetLabel } from "../../../src/taskpane/logic/gateway-origin";

const answering =
  (status: number, body: string, seen: string[] = []): typeof fetch =>
  async (input) => {
    seen.push(String(input));
    return new Response(body, { status, headers: { "content-type": "application/json" } });
  };

describe("detectGateway", () => {
  it('answers <origin>/v1 when the origin\'s /healthz answers {"ok":true}', async () => {
    const seen: string[] = [];
    await expect(
      detectGateway({ origin: "http://127.0.0.1:8080", fetch: answering(200, '{"ok":true}', seen) }),
    ).resolves.toBe("http://127.0.0.1:8080/v1");
    expect(seen).toEqual(["http://127.0.0.1:8080/healthz"]);
    await expect(
      detectGateway({ origin: "https://fdq.example.com", fetch: answering(200, '{"ok":true}') }),
    ).resolves.toBe("https://fdq.example.com/v1");
  });

  it("answers undefined for other servers, failures and origins the add-in could not use", async () => {
    // Never answers; gives up when aborted, as fetch does.
    const never: typeof fetch = (_, init) =>
      new Promise((_resolve, reject) =>
        init?.signal?.addEventListener("abort", () => reject(new DOMException("aborted", "AbortError"))),
      );
    const cases: Array<[string, typeof fetch]> = [
      ["https://localhost:3000", answering(404, "Not Found")],
      ["https://localhost:3000", answering(200, "<html></html>")],
      ["https://localhost:3000", answering(200, '{"ok":false}')],
      ["https://localhost:3000", answering(200, "true")],
      ["https://localhost:3000", answering(500, '{"ok":true}')],
      ["https://localhost:3000", () => Promise.reject(new TypeError("Failed to fetch"))],
      ["https://localhost:3000", never],
      ["http://fdq.example.com", answering(200, '{"ok":true}')],
      ["null", answering(200, '{"ok":true}')],
      ["", answering(200, '{"ok":true}')],
    ];
    for (const [origin, fetch] of cases) {
      await expect(detectGateway({ origin, fetch, timeoutMs: 50 })).resolves.toBeUndefined();
    }
  });

  it("labels the preset with its URL", () => {
    expect(gatewayPresetLabel("https://fdq.example.com/v1")).toBe(
      "This gateway (https://fdq.example.com/v1)",
    );
  });
});
