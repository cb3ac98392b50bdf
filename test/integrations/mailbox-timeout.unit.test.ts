// Fetching a received email from Resend gives up when Resend hangs, instead of holding
// the webhook (and the bot) forever.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MailboxError, resendMailbox } from "../../src/integrations/email/inbound/mailbox.js";

let server: http.Server;
let baseUrl = "";
let requests = 0;
beforeAll(async () => {
  // Accepts every request and never answers.
  server = http.createServer(() => void requests++);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

describe("the Resend mailbox", () => {
  it("gives up on a hung Resend after its timeout with a clear error", async () => {
    const mailbox = resendMailbox({ apiKey: "re_test_key", baseUrl, timeoutMs: 1000 });
    const started = Date.now();
    const failure = await mailbox.get("email-123").catch((error: Error) => error);
    expect(failure).toBeInstanceOf(MailboxError);
    expect((failure as Error).message).toBe("Resend did not give email email-123 within 1 s");
    expect(Date.now() - started).toBeLessThan(5000);
    expect(requests).toBe(1);
  });
});
