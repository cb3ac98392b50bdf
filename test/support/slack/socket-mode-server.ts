// The WebSocket end of Slack's Socket Mode, for tests: says hello to a connecting
// app, sends it envelopes (slash commands, interactions, events) and collects the
// acknowledgements it sends back, with their payloads.

import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import { type WebSocket, WebSocketServer } from "ws";

export interface SocketModeServer {
  url: string;
  connected(): Promise<void>;
  /** Sends an envelope and resolves with the app's acknowledgement payload. */
  send(
    type: "slash_commands" | "interactive" | "events_api",
    payload: Record<string, unknown>,
  ): Promise<Record<string, unknown> | undefined>;
  close(): Promise<void>;
}

export async function startSocketModeServer(): Promise<SocketModeServer> {
  const server = new WebSocketServer({ port: 0, host: "127.0.0.1" });
  await new Promise<void>((resolve) => server.once("listening", () => resolve()));
  let socket: WebSocket | undefined;
  let onConnect: (() => void) | undefined;
  const acks = new Map<string, (payload: Record<string, unknown> | undefined) => void>();
  server.on("connection", (client) => {
    socket = client;
    client.on("message", (data) => {
      const message = JSON.parse(String(data)) as { envelope_id?: string; payload?: Record<string, unknown> };
      if (message.envelope_id) acks.get(message.envelope_id)?.(message.payload);
    });
    client.send(
      JSON.stringify({
        type: "hello",
        num_connections: 1,
        debug_info: { host: "local", approximate_connection_time: 3600 },
        connection_info: { app_id: "A0POOLPATROL" },
      }),
    );
    onConnect?.();
  });
  return {
    url: `ws://127.0.0.1:${(server.address() as AddressInfo).port}/link`,
    connected: () =>
      socket
        ? Promise.resolve()
        : new Promise((resolve) => {
            onConnect = resolve;
          }),
    send(type, payload) {
      const envelopeId = randomUUID();
      return new Promise((resolve) => {
        acks.set(envelopeId, resolve);
        socket!.send(
          JSON.stringify({
            envelope_id: envelopeId,
            type,
            payload,
            accepts_response_payload: type !== "events_api",
            retry_attempt: 0,
            retry_reason: "",
          }),
        );
      });
    },
    close: () =>
      new Promise((resolve) => {
        for (const client of server.clients) client.terminate();
        server.close(() => resolve());
      }),
  };
}
