import { idPattern } from "../../domain/ids.js";

// How a reply finds its thread: a plus address per thread on the inbound address,
// and RFC 5322 Message-IDs that a mail client quotes back in In-Reply-To/References.

const THREAD_TAG = new RegExp(`\\+(${idPattern("thread")})@`, "i");

/** replies@inbound.example.com + THREAD-1A2B3C4D -> replies+THREAD-1A2B3C4D@inbound.example.com */
export function replyAddressFor(inboundAddress: string, threadId: string): string {
  const [local, domain] = splitAddress(inboundAddress);
  return `${local.split("+")[0]}+${threadId}@${domain}`;
}

/** The thread named by a plus address among the recipients, if any. */
export function threadIdFromAddresses(addresses: readonly string[]): string | undefined {
  for (const address of addresses) {
    const match = address.match(THREAD_TAG);
    if (match) return match[1]!.toUpperCase();
  }
  return undefined;
}

/** <MSG-1A2B3C4D@inbound.example.com> */
export function rfcMessageIdFor(messageId: string, inboundAddress: string): string {
  return `<${messageId}@${splitAddress(inboundAddress)[1]}>`;
}

/** Every <...> id in In-Reply-To and References, newest first. */
export function referencedMessageIds(headers: Record<string, string>): string[] {
  const value = (name: string) => Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1] ?? "";
  const ids = (text: string) => text.match(/<[^<>\s]+>/g) ?? [];
  return [...new Set([...ids(value("in-reply-to")), ...ids(value("references")).reverse()])];
}

/** "Maribel Quintero <maribel@example.com>" -> "maribel@example.com", lower-cased. */
export function addressOf(mailbox: string): string {
  return (mailbox.match(/<([^>]+)>/)?.[1] ?? mailbox).trim().toLowerCase();
}

function splitAddress(address: string): [string, string] {
  const bare = addressOf(address);
  const at = bare.lastIndexOf("@");
  return [bare.slice(0, at), bare.slice(at + 1)];
}
