// What the rider wrote, apart from the quoted earlier mail and their signature.
// Minimal version; the classifier work (branch replies) owns the full one.

export interface ReplyText {
  reply: string;
  quoted: string;
  signature: string;
}

const QUOTE_HEADER = [
  /^On .+wrote:\s*$/i,
  /^-{2,}\s*Original Message\s*-{2,}/i,
  /^From: .+/i,
  /^_{5,}\s*$/,
  /^Sent from my /i,
];
const SIGN_OFF =
  /^(thanks|thank you|thanks so much|best|regards|best regards|kind regards|cheers|sincerely|--)[,!.]?\s*$/i;

export function extractReplyText(body: string): ReplyText {
  const lines = body.replace(/\r\n/g, "\n").split("\n");
  let end = lines.findIndex((line) => line.startsWith(">") || QUOTE_HEADER.some((re) => re.test(line.trim())));
  if (end === -1) end = lines.length;
  const quoted = lines.slice(end).join("\n").trim();
  const own = lines.slice(0, end);
  // A signature starts at "--" or at a sign-off line followed by at most three short lines (a name, a title).
  let sign = own.findIndex((line, i) => {
    const rest = own.slice(i + 1).filter((l) => l.trim());
    return line.trim() === "--" || (SIGN_OFF.test(line.trim()) && rest.length <= 3 && rest.every((l) => l.length < 40));
  });
  if (sign === -1) sign = own.length;
  return {
    reply: own.slice(0, sign).join("\n").trim(),
    quoted,
    signature: own.slice(sign).join("\n").trim(),
  };
}
