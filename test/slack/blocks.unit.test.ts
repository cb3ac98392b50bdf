// Pure builders, no database: redaction, status words, confidence, trail sentences,
// and cards that stay within Slack's limits (checked by the local Slack's validator).
import type http from "node:http";
import { describe, expect, it } from "vitest";
import { loadPolicy } from "../../src/agents/outreach/policy.js";
import { escalationDraft } from "../../src/agents/outreach/templates.js";
import type { ApprovalRecord } from "../../src/data/approval-repository.js";
import { evaluateLocation } from "../../src/domain/location-policy.js";
import { APPEAL_ADDRESS } from "../../src/domain/policy-text.js";
import { redactFinding, redactPersonalDetails } from "../../src/domain/redaction.js";
import { validateBlocks, validateView } from "../../src/sandbox/slack/block-kit.js";
import { formBodyRefusal } from "../../src/sandbox/ui-routes.js";
import { approvalCard } from "../../src/slack/blocks/approval-card.js";
import { findingText } from "../../src/slack/blocks/format.js";
import { parseCaseFilter } from "../../src/slack/blocks/help.js";
import { fullReplyModal } from "../../src/slack/blocks/modals.js";
import { failedConfidence, type LatestResults } from "../../src/slack/blocks/rider-evidence.js";
import { trailSentence } from "../../src/slack/blocks/trail.js";

describe("redactPersonalDetails", () => {
  it.each([
    ["I moved to 1450 N. Maple Street, Apt 4B.", "I moved to [street address]."],
    ["new place is 88 oak tree ln", "new place is [street address]"],
    ["write to PO Box 12", "write to [street address]"],
    [
      "call (916) 555-0142 or 916.555.0199 or +1 916-555-0100",
      "call [phone number] or [phone number] or [phone number]",
    ],
    ["mail dana.r+van@example.co.uk", "mail [email address]"],
    ["my ZIP 95131 is right", "my ZIP 951xx is right"],
    ["I live in Hayward 94544 now", "I live in Hayward 945xx now"],
    ["Elk Grove, CA 95758-1234", "Elk Grove, CA 957xx"],
    ["P-30078 rides with EMP-1054 since 2019", "P-30078 rides with EMP-1054 since 2019"],
    [
      "I drive to my sister's place off Aborn Road and get on near Oak St. with everyone",
      "I drive to my sister's place off [street address] and get on near [street address] with everyone",
    ],
    [
      "I Drive from Mount St Helens to San Jose HQ on Tracy Park & Ride",
      "I Drive from Mount St Helens to San Jose HQ on Tracy Park & Ride",
    ],
    [
      "appeal to vanpool-program@northwind.example, not maribel@northwind.example",
      "appeal to vanpool-program@northwind.example, not [email address]",
    ],
  ])("%j", (text, redacted) => expect(redactPersonalDetails(text)).toBe(redacted));

  it("keeps the appeal address in a drafted answer a person reviews on the card", () => {
    const draft = escalationDraft({ first_name: "Maribel", vanpool_id: "VP-102" });
    expect(redactPersonalDetails(draft.body)).toContain(`writing to ${APPEAL_ADDRESS}.`);
    // The address the policy gives riders to appeal to.
    expect(loadPolicy().find((s) => s.heading === "Appeals")!.text).toContain(APPEAL_ADDRESS);
  });

  it("shows a finding's home ZIP as ZIP3, as a rider's words, but the van's work site as it is", () => {
    const finding =
      "Omar's home (Tracy, CA 95376) is 58.2 mi from the pickup at 2450 Orchard Pkwy, San Jose, CA 95131.";
    const shown = redactFinding(finding, ["2450 Orchard Pkwy, San Jose, CA 95131"]);
    expect(shown).toContain("Tracy, CA 953xx");
    expect(shown).toContain("2450 Orchard Pkwy, San Jose, CA 95131");
    expect(shown).not.toContain("58.2");
    expect(redactPersonalDetails("Tracy, CA 95376")).toBe("Tracy, CA 953xx");
  });

  it("bands a rider's distance but keeps the policy's limit and the pickup, on every surface", () => {
    const result = evaluateLocation(
      {
        vanpool_id: "VP-1",
        source: "pickup",
        address: "2450 Orchard Pkwy, San Jose, CA 95131",
        point: { lat: 37.39, lng: -121.92 },
      },
      [
        {
          employee_id: "EMP-1",
          home_zip: "95376",
          home_city: null,
          home_source: "zip_centroid",
          home_point: { lat: 37.7, lng: -121.4 },
          distance: { miles: 62.3, method: "haversine" },
        },
      ],
      { maxDistanceMiles: 50 },
    );
    const shown = findingText(result);
    expect(shown).toContain("farther than 50 miles from the pickup point (2450 Orchard Pkwy, San Jose, CA 95131)");
    expect(shown).toContain("EMP-1 (953xx, 50-75 mi)");
    expect(shown).not.toMatch(/62\.3|95376|farther than 50-75/);
    expect(redactFinding("home is 80 mi away, over 50 mi (limit 50 mi)")).toBe(
      "home is 75-100 mi away, over 50 mi (limit 50 mi)",
    );
  });

  it("leaves ordinary sentences alone", () => {
    for (const text of ["I work 4 days a week on Day Shift", "It's 62 miles, 3 weeks ago", "Shift starts 06:00"])
      expect(redactPersonalDetails(text)).toBe(text);
  });
});

describe("parseCaseFilter", () => {
  it("takes the words help shows, any case or separator, and the old status names", () => {
    expect(parseCaseFilter("needs a person")).toBe("hitl_review");
    expect(parseCaseFilter("Needs-A-Person")).toBe("hitl_review");
    expect(parseCaseFilter("hitl_review")).toBe("hitl_review");
    expect(parseCaseFilter("waiting")).toBe("pending_reply");
    expect(parseCaseFilter("cancellation pending")).toBe("pre_cancel");
    expect(parseCaseFilter("frobnicate")).toBeUndefined();
  });
});

describe("failedConfidence", () => {
  const result = (verdict: "pass" | "fail" | "inconclusive", confidence: number) => ({
    verdict,
    confidence,
    reasoning: "",
    evidence: [],
    flagged: [],
    policy: {},
  });
  it("is the confidence of the failed check, not of a passing one", () => {
    const results: LatestResults = { location: result("fail", 4), shift: result("pass", 3) };
    expect(failedConfidence(results)).toBe(4);
    expect(failedConfidence({ location: result("inconclusive", 2), shift: result("pass", 5) })).toBe(2);
    expect(failedConfidence({ location: result("pass", 5), shift: result("pass", 5) })).toBeNull();
  });
});

describe("trailSentence", () => {
  it("says who did what in words", () => {
    const at = new Date("2026-11-20T10:00:00Z");
    expect(
      trailSentence({
        actor: "agent:case_manager",
        action: "case.status_changed",
        details: { from: "pending_reply", to: "pre_cancel" },
        at,
      }),
    ).toMatch(/^<!date\^\d+\^.*> · Pool Patrol moved the case from Waiting for riders to Cancellation pending\.$/);
    expect(
      trailSentence({ actor: "slack:U0ALEX", action: "approval.approved", details: { kind: "cancellation" }, at }),
    ).toMatch(/<@U0ALEX> approved a cancellation\.$/);
  });
});

describe("cards within Slack's limits", () => {
  const approval = (riders: number): ApprovalRecord => ({
    approval_id: "APR-0123456789ABCDEF",
    kind: "cancellation",
    case_id: "CASE-0123456789ABCDEF",
    payload: { employee_ids: Array.from({ length: riders }, (_, i) => `EMP-${2000 + i}`), reason: "x" },
    status: "pending",
    graph_thread_id: null,
    interrupt_id: null,
    decided_by: null,
    decided_at: null,
    decision_reason: null,
    edited_body: null,
    applied_at: null,
    result_note: null,
    created_at: new Date(),
  });

  it("keeps a 15-rider cancellation with long replies valid, action ids unique", () => {
    const riders = Array.from({ length: 15 }, (_, i) => ({
      employee_id: `EMP-${2000 + i}`,
      first_name: "Dana",
      facts: ["📍 Oakdale (953xx) · 50-75 mi from the pickup (limit 50 mi)"],
      reply: { message_id: `MSG-${i}`, at: new Date(), body: "word ".repeat(2000), answered_at: null },
    }));
    const card = approvalCard(approval(15), "VP-111", {
      facts: { riders, whyNow: { kind: "third_re_audit", count: 3, failing: ["location"] } },
    });
    expect(validateBlocks(card.blocks, "message")).toEqual([]);
    expect(JSON.stringify(card.blocks)).toContain("…and 5 more riders");
    expect(card.text).not.toMatch(/@/);
  });

  it("titles a decided cancellation by what happened, no longer as a question", () => {
    const title = (status: ApprovalRecord["status"]) => {
      const card = approvalCard({ ...approval(1), status, decided_by: "U0ALEX", decided_at: new Date() }, "VP-111");
      return JSON.stringify(card.blocks[0]);
    };
    expect(title("pending")).toContain("Cancel membership? VP-111");
    expect(title("approved")).toContain("Cancellation decided: VP-111");
    expect(title("rejected")).toContain("Cancellation rejected: VP-111");
    expect(title("expired")).toContain("Cancellation expired: VP-111");
    for (const status of ["approved", "rejected", "expired"] as const) expect(title(status)).not.toContain("?");
    const undone = approvalCard({ ...approval(1), status: "approved", decided_at: new Date() }, "VP-111", {
      facts: {
        riders: [],
        whyNow: null,
        decisions: [
          {
            employee_id: "EMP-2000",
            decision: "remove",
            first_approver: null,
            first_approved_at: null,
            decided_by: "U0ALEX",
            decided_at: new Date(),
            evidence_version: null,
            outcome: "reinstated",
            undone_by: "U0ALEX",
            undone_at: new Date(),
          },
        ],
      },
    });
    expect(JSON.stringify(undone.blocks[0])).toContain("Cancellation undone: VP-111");
  });

  it("opens a very long reply in a valid modal", () => {
    const view = fullReplyModal({ rider: "EMP-1 (Dana)", at: new Date(), body: "a".repeat(20_000), caseId: "CASE-1" });
    expect(validateView(view, "modal")).toEqual([]);
  });
});

describe("formBodyRefusal", () => {
  const req = (headers: Record<string, string>, method = "POST") =>
    ({ method, headers: { host: "localhost:3500", ...headers } }) as unknown as http.IncomingMessage;
  it("refuses bodies a cross-site form can send, takes JSON", () => {
    expect(formBodyRefusal(req({ "content-type": "application/json" }))).toBeUndefined();
    expect(formBodyRefusal(req({ "content-type": "application/json; charset=utf-8" }))).toBeUndefined();
    for (const type of ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x"])
      expect(formBodyRefusal(req({ "content-type": type }))).toMatch(/application\/json only/);
    expect(formBodyRefusal(req({}, "GET"))).toBeUndefined();
  });
});
