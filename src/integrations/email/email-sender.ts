export interface OutgoingEmail {
  from: string;
  to: string[];
  cc: string[];
  subject: string;
  text: string;
  /** Pool Patrol's own message id (MSG-…), also the name of the outbox file. */
  messageId: string;
  /** Where the rider's reply goes: the thread's plus address. */
  replyTo: string;
  /** Message-ID, and In-Reply-To/References on follow-ups. */
  headers: Record<string, string>;
  /** The same key twice sends one email. */
  idempotencyKey: string;
}

export interface EmailSender {
  readonly name: string;
  send(email: OutgoingEmail): Promise<{ providerMessageId: string }>;
}

export class EmailSendError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "EmailSendError";
  }
}
