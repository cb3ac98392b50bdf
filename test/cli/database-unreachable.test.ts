// DATABASE_URL naming a server that is not there, or a login it refuses: the built CLI says in one
// sentence what to check and exits 1, with no stack trace, for the long-running and the read-only commands.
import net from "node:net";
import { describe, expect, inject, it } from "vitest";
import { BOT_DATABASE_ENV } from "../../src/app/worker-processes.js";
import { runCli } from "../support/cli.js";

/** A port nothing listens on: taken from the system, then given back. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const COMMANDS = ["start", "sandbox", "cases", "approvals", "jobs", "quarantine list"];

describe("a database that cannot be used", () => {
  it.each(COMMANDS)("%s against a closed port says where nothing answers and exits 1", async (command) => {
    const port = await closedPort();
    const result = await runCli(command.split(" "), {
      DATABASE_URL: `postgresql://poolpatrol:secret@127.0.0.1:${port}/poolpatrol`,
      PORT: String(await closedPort()),
    });
    expect(result.code).toBe(1);
    const problem = result.stderr.split("\n").find((line) => line.startsWith("poolpatrol: "));
    expect(problem).toBe(
      `poolpatrol: Nothing answers at 127.0.0.1:${port}, the database server in DATABASE_URL: check that PostgreSQL is running there and that the host and port are right.`,
    );
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(result.stderr).not.toContain("secret");
    expect(result.stdout).toBe("");
  });

  it("a bot's worker whose embedded PostgreSQL went away says so, without naming DATABASE_URL, and exits 1", async () => {
    const port = await closedPort();
    // What the bot gives its workers when it runs on its embedded server.
    const result = await runCli(["worker"], {
      DATABASE_URL: `postgresql://poolpatrol:poolpatrol@127.0.0.1:${port}/poolpatrol`,
      [BOT_DATABASE_ENV]: "embedded",
    });
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(
      `poolpatrol: The embedded PostgreSQL of the bot that started this worker at 127.0.0.1:${port} went away: the bot restarts it, and this worker after it.`,
    );
    expect(result.stderr).not.toContain("DATABASE_URL");
  });

  it("case show with a wrong password names the refused user, not the password, and exits 1", async () => {
    const server = new URL(inject("postgresServerUrl"));
    server.password = "not-the-password";
    server.pathname = "/poolpatrol_template";
    const result = await runCli(["case", "show", "CASE-0000000000000000"], { DATABASE_URL: server.toString() });
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toBe(
      `poolpatrol: The database server ${server.hostname}:${server.port} refused the login of user "${server.username}": check the user name and password in DATABASE_URL.`,
    );
    expect(result.stderr).not.toContain("not-the-password");
  });
});
