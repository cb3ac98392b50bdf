// Answers are written in Slack's mrkdwn (`*bold*`, `_italic_`, `~strike~`, `<url|label>`), the format of
// every other text Pool Patrol posts. Streamed text (markdown_text) and markdown blocks read standard
// markdown instead, where `*x*` is italics: an answer is converted once, here, where it leaves for them.

/** Slack mrkdwn as standard markdown: bold, strike-through and links; italics and code read the same. */
export function mrkdwnToMarkdown(text: string): string {
  return text
    .split(/(`[^`\n]*`)/)
    .map((part, i) =>
      i % 2 === 1
        ? part
        : part
            .replace(/(^|[^*\w])\*(?=\S)([^*\n]*?\S)\*(?![*\w])/g, "$1**$2**")
            .replace(/(^|[^~\w])~(?=\S)([^~\n]*?\S)~(?![~\w])/g, "$1~~$2~~")
            .replace(/<((?:https?|mailto):[^|>\s]+)\|([^>]+)>/g, "[$2]($1)")
            .replace(/<((?:https?|mailto):[^|>\s]+)>/g, "$1"),
    )
    .join("");
}
