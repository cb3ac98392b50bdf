// The running bot as an HR sync meets it: POST /api/imports with a write token, and the email it sends
// counted at the Resend stub.
import fs from "node:fs";
import { parseSettings } from "../../src/config/settings.js";
import { createApiToken } from "../../src/data/api-token-repository.js";
import { createEmailSender } from "../../src/integrations/email/index.js";
import { type ApiResponse, apiClient } from "./api-client.js";
import { type Harness, startHarness } from "./bot-harness.js";
import { HRIS_MAPPING } from "./hris.js";
import { type ResendStub, startResendStub } from "./resend-stub.js";

export interface ImportHarness {
  h: Harness;
  stub: ResendStub;
  /** Uploads `content` as `fileName`; an employees file is read with the example HRIS mapping. */
  upload(kind: string, fileName: string, content: string): Promise<ApiResponse>;
  close(): Promise<void>;
}

export async function startImportHarness(): Promise<ImportHarness> {
  const stub = await startResendStub();
  const sender = createEmailSender(parseSettings({ RESEND_API_KEY: "re_test_key", RESEND_BASE_URL: stub.baseUrl }));
  const h = await startHarness({ sender });
  const api = await apiClient(h.url.replace(/\/slack\/events$/, ""));
  const writer = (await createApiToken(h.db.prisma, { name: "hr-sync", scopes: ["read", "write"], now: new Date() }))
    .secret;
  const mapping = JSON.parse(fs.readFileSync(HRIS_MAPPING, "utf8"));
  return {
    h,
    stub,
    upload: (kind, fileName, content) =>
      api.request("POST", "/api/imports", {
        token: writer,
        body: { kind, file_name: fileName, content, ...(kind === "employees" ? { mapping } : {}) },
      }),
    close: async () => {
      await h.close();
      await stub.close();
    },
  };
}
