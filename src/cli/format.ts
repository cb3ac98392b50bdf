// Plain-text rendering of audits for the terminal.
import { dayInWords } from "../domain/dates.js";
import { keptInWords, type RiderException } from "../domain/exceptions.js";
import {
  CHECK_KINDS,
  CHECK_TITLES,
  type EvidenceItem,
  type SpecialistResult,
  type VanpoolAudit,
  type Verdict,
} from "../domain/specialist-result.js";
import type { AuditSummary } from "../verification/audit-service.js";

const useColor = process.stdout.isTTY && !process.env.NO_COLOR;
const paint = (code: number, text: string) => (useColor ? `\x1b[${code}m${text}\x1b[0m` : text);
const VERDICT_COLOR: Record<Verdict, number> = { pass: 32, fail: 31, inconclusive: 33 };
export const verdictLabel = (verdict: Verdict) => paint(VERDICT_COLOR[verdict], verdict.toUpperCase());

export function formatAudit(audit: VanpoolAudit & { run_id?: string }): string {
  const lines = [
    `${audit.vanpool_id}: ${verdictLabel(audit.verdict)}  (audit week from ${audit.as_of}${audit.run_id ? `, run ${audit.run_id}` : ""})`,
    "",
    ...formatCheck(audit.location),
    "",
    ...formatCheck(audit.shift),
    "",
    ...formatCheck(audit.employment),
  ];
  const flagged = [...new Set(CHECK_KINDS.flatMap((check) => audit[check].flagged))];
  lines.push("", flagged.length > 0 ? `Flagged riders: ${flagged.join(", ")}` : "Flagged riders: none");
  return lines.join("\n");
}

function formatCheck(result: SpecialistResult): string[] {
  const title = CHECK_TITLES[result.check];
  const lines = [
    `${title}: ${verdictLabel(result.verdict)}  confidence ${result.confidence}/5`,
    `  ${result.reasoning}`,
    "  Evidence:",
  ];
  for (const item of result.evidence) lines.push(...formatEvidence(item).map((l) => `    ${l}`));
  return lines;
}

function formatEvidence(item: EvidenceItem): string[] {
  switch (item.type) {
    case "vanpool_pickup":
      return [
        `pickup: ${item.point_source === "pickup" ? "pickup point" : "work site"}${item.address ? ` ${item.address}` : ""} ${coords(item.pickup_coords)}`,
      ];
    case "employee_profile":
      return [
        `${item.employee_id}: home ${item.home_city ?? "?"} ${item.home_zip ?? ""} via ${String(item.home_point_source).replace("_", " ")}${item.home_coords ? ` ${coords(item.home_coords)}` : ""}`,
      ];
    case "distance_check":
      return item.distance_miles === null
        ? [`  distance unknown -> ${item.verdict}`]
        : [
            `  ${item.distance_miles} mi (${item.method}) vs limit ${item.threshold_miles} mi -> ${item.verdict}${item.fallback_reason ? ` [fallback: ${item.fallback_reason}]` : ""}`,
          ];
    case "shift_reference":
      return [
        `reference: ${item.description ?? "none"} (${String(item.source).replace("_", " ")})${Array.isArray(item.tied_groups) ? ` tied: ${JSON.stringify(item.tied_groups)}` : ""}`,
      ];
    case "employee_shift": {
      const head = `${item.employee_id}: ${item.shift_name ?? "no shift"}${item.schedule ? ` ${item.schedule}` : ""}`;
      if (!Array.isArray(item.days)) return [`${head}${item.verdict ? ` -> ${item.verdict}` : ""}`];
      const days = item.days as {
        day: string;
        rider: string | null;
        start_diff_minutes: number | null;
        end_diff_minutes: number | null;
        overlap_minutes: number;
        compatible: boolean;
        via: string | null;
      }[];
      const lines = [
        `${head} -> ${item.compatible_days}/${item.operating_days} days compatible (${Math.round(Number(item.compatible_day_ratio) * 100)}%) -> ${item.verdict}`,
      ];
      if (item.verdict !== "pass") {
        for (const d of days) {
          lines.push(
            `  ${d.day} ${d.rider ?? "off"}${d.start_diff_minutes === null ? "" : ` start ${d.start_diff_minutes}m end ${d.end_diff_minutes}m apart, overlap ${d.overlap_minutes}m`} ${d.compatible ? `ok${d.via === "pto" ? " (PTO)" : ""}` : "x"}`,
          );
        }
      }
      return lines;
    }
    default:
      return [JSON.stringify(item)];
  }
}

function coords(value: unknown): string {
  const point = value as { lat: number; lng: number } | null;
  return point ? `(${point.lat.toFixed(4)}, ${point.lng.toFixed(4)})` : "";
}

export function formatSummary(summary: AuditSummary): string {
  const { pass, fail, inconclusive } = summary.byVerdict;
  const lines = [
    `Audited ${summary.total - summary.errors.length} of ${summary.total} active vanpools in ${(summary.elapsedMs / 1000).toFixed(1)} s`,
    "",
    `  ${"verdict".padEnd(14)}count`,
    `  ${verdictLabel("pass").padEnd(14 + (useColor ? 9 : 0))}${pass}`,
    `  ${verdictLabel("fail").padEnd(14 + (useColor ? 9 : 0))}${fail}`,
    `  ${verdictLabel("inconclusive").padEnd(14 + (useColor ? 9 : 0))}${inconclusive}`,
  ];
  if (summary.attention.length > 0) {
    const shown = summary.attention.slice(0, 50);
    lines.push("", "Needs attention:", `  ${"vanpool".padEnd(10)}${"verdict".padEnd(14)}${"failed".padEnd(17)}why`);
    for (const a of shown) {
      lines.push(
        `  ${a.vanpool_id.padEnd(10)}${a.verdict.padEnd(14)}${(a.failed_checks.join("+") || "-").padEnd(17)}${a.reason}`,
      );
    }
    if (summary.attention.length > shown.length)
      lines.push(`  ... and ${summary.attention.length - shown.length} more (use --json for all)`);
  }
  if (summary.errors.length > 0)
    lines.push("", `Not checked (${summary.errors.length}):`, ...summary.errors.map((e) => `  ${e.message}`));
  return lines.join("\n");
}

/** A one-line progress bar on a terminal; silent when output is piped. */
export function progressBar(stream: NodeJS.WriteStream = process.stderr): (done: number, total: number) => void {
  if (!stream.isTTY) return () => {};
  return (done, total) => {
    const width = 30;
    const filled = total === 0 ? width : Math.round((done / total) * width);
    stream.write(
      `\r  [${"#".repeat(filled)}${".".repeat(width - filled)}] ${done}/${total}${done === total ? "\n" : ""}`,
    );
  };
}

/** "EMP-1028 on VP-111 (location): kept by alice until May 26 (moving soon)", dates in the program's time zone. */
export function keptText(exception: RiderException, timeZone: string, now: Date): string {
  return `${exception.employee_id} on ${exception.vanpool_id} (${exception.check}): ${keptInWords(
    exception,
    exception.granted_by,
    dayInWords(exception.expires_at, timeZone, now),
  )}`;
}
