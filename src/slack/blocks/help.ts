export const COMMAND_USAGE = [
  "*/poolpatrol* commands:",
  "• `/poolpatrol audit VP-101`: audit a vanpool now and post (or update) its case alert",
  "• `/poolpatrol audit all`: audit every vanpool (approvers); one summary, new cases in its thread",
  "• `/poolpatrol status VP-101` or `/poolpatrol status CASE-1A2B3C4D`: where a vanpool or case stands",
  "• `/poolpatrol cases [status]`: open cases, or those in one status (pending_reply, hitl_review, pre_cancel, resolved, cancelled)",
  "• `/poolpatrol digest`: post the digest to the audit channel now",
  "• `/poolpatrol help`: this list",
  "In a case alert's thread, ask things like _why did this case fail?_, _what did the rider say?_ or _which riders are flagged?_",
].join("\n");
