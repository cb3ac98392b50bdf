// The job engine: pg-boss on the app's own PostgreSQL, in the `pgboss` schema. Every
// queue gets retries with backoff, an expiry (the job's timeout) and a dead-letter
// queue; workers run in the bot, the sandbox and, briefly, in CLI commands.
//
// Hooking in a queue: `await engine.defineQueue("name", { ... })`, then
// `await engine.work("name", async (job) => { ... })` in the processes that should run it,
// and `engine.send("name", data, options)` (with `{ db: executor }` inside a transaction).
import { createHash, randomUUID } from "node:crypto";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import PgBoss from "pg-boss";
import { createInstanceRegistry } from "../data/instance-repository.js";
import { pgExecutor } from "../data/job-executor.js";
import { JOB_SCHEMA } from "../data/job-repository.js";
import { connectionOptions, DatabaseTimeout, isDatabaseUnreachable, outageLog, within } from "../data/pg-pool.js";

export const DEAD_LETTERS = "dead-letters";
const DEADLOCK_DETECTED = "40P01";
const QUEUE_ATTEMPTS = 5;
/** How often the spare workers of a queue look for jobs when nobody woke them (a safety net). */
const SPARE_POLLING_SECONDS = 60;
/** How long `sendBy` waits for the answer to a commit it sent just before its deadline. */
const COMMIT_GRACE_MS = 500;

export interface QueueDefaults {
  retryLimit?: number;
  retryDelay?: number;
  retryBackoff?: boolean;
  expireInSeconds?: number;
  policy?: PgBoss.QueuePolicy;
}

const DEFAULTS: Required<Omit<QueueDefaults, "policy">> = {
  retryLimit: 4,
  retryDelay: 2,
  retryBackoff: true,
  expireInSeconds: 300,
};

export interface UnfinishedJob {
  id: string;
  name: string;
  state: string;
  error: string | undefined;
}

export type JobHandler<T> = (job: PgBoss.JobWithMetadata<T>) => Promise<unknown>;

export interface JobEngine {
  boss: PgBoss;
  /** This process's engine: its heartbeat says it is alive; the jobs and agent runs it works are marked with it. */
  instanceId: string;
  defineQueue(name: string, options?: QueueDefaults): Promise<void>;
  /** Runs `handler` for jobs of `name` in this process, `concurrency` at a time. */
  work<T extends object>(name: string, handler: JobHandler<T>, options?: { concurrency?: number }): Promise<void>;
  send(name: string, data: object, options?: PgBoss.SendOptions): Promise<string | null>;
  /**
   * Sends a job only if the database takes it before `deadline` (a time in ms): its own transaction,
   * committed only when every step before it answered in time, else abandoned (the server rolls it
   * back), so a job that was not queued in time is never queued later either. Throws
   * DatabaseTimeout when it was not (`committing`: the database stopped answering the commit itself).
   */
  sendBy(deadline: number, name: string, data: object, options?: PgBoss.SendOptions): Promise<string | null>;
  /**
   * Writes many jobs in one statement (with `db`, inside the caller's transaction); a job whose id
   * exists already is left as it is.
   */
  insert(jobs: (PgBoss.JobInsert & { id: string })[], options?: { db?: PgBoss.Db }): Promise<void>;
  /** Waits for this job in `drain` too (a job retried by hand). */
  track(name: string, id: string): void;
  /** Queues this process works: jobs sent to them are picked up at once, not at the next poll. */
  worked(): string[];
  /**
   * Waits until every job this process sent to a queue it works has finished, failed for good, or is
   * due after the timeout (a retry much later, a reply timeout in days); returns the ones that did not
   * complete, with their error.
   */
  drain(timeoutMs?: number): Promise<UnfinishedJob[]>;
  /** Stops this process's workers (a sandbox restarting inside one process), keeping the engine up. */
  stopWorkers(): Promise<void>;
  /** Retries now the jobs of processes whose heartbeat lapsed (also done every third of the TTL); returns how many. */
  retryOrphans(): Promise<number>;
  stop(): Promise<void>;
}

/** A job id derived from a key: sending the same key twice (two replicas, a retry) makes one job. */
export function jobIdFor(key: string): string {
  const hex = createHash("sha256").update(key).digest("hex");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-4${hex.slice(13, 16)}-a${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** How many sent jobs a process remembers for `drain`: a long-running bot forgets the oldest beyond this. */
export const SENT_JOBS_LIMIT = 10_000;

/**
 * The jobs this process sent (or retried by hand) to queues it works, for `drain` to wait on: forgotten
 * when this process finishes them or `drain` has looked at them, and the oldest beyond `limit`.
 */
export class SentJobs {
  private readonly jobs = new Map<string, string>();
  constructor(private readonly limit = SENT_JOBS_LIMIT) {}
  add(id: string, name: string): void {
    this.jobs.delete(id);
    this.jobs.set(id, name);
    for (const oldest of this.jobs.keys()) {
      if (this.jobs.size <= this.limit) break;
      this.jobs.delete(oldest);
    }
  }
  forget(id: string): void {
    this.jobs.delete(id);
  }
  get size(): number {
    return this.jobs.size;
  }
  entries(): [string, string][] {
    return [...this.jobs];
  }
}

export async function startJobEngine(options: {
  databaseUrl: string;
  log: (line: string) => void;
  /** How often idle workers look for new jobs. */
  pollingIntervalSeconds?: number;
  /** Run pg-boss maintenance (expiry, archiving, retention) in this process. */
  supervise?: boolean;
  /** Queues created at start, so a job sent to one is never dropped for want of its queue. */
  queues?: Record<string, QueueDefaults>;
  /**
   * How long after its last heartbeat a process counts as crashed: the jobs it was running are
   * then retried at once, not after their expiry.
   */
  instanceTtlMs?: number;
  /** Connections of the engine's pool (pg-boss and the heartbeat share it; POOLPATROL_DB_POOL_SIZE sets its share). */
  connections?: number;
}): Promise<JobEngine> {
  const pool = new pg.Pool(connectionOptions(options.databaseUrl, options.connections ?? 4));
  pool.on("error", () => {});
  pool.on("connect", (client) => client.on("error", () => {}));
  const boss = new PgBoss({
    db: { executeSql: (text, values) => pool.query(text, values) },
    schema: JOB_SCHEMA,
    supervise: options.supervise ?? true,
    schedule: false,
    archiveCompletedAfterSeconds: 12 * 3600,
    archiveFailedAfterSeconds: 7 * 24 * 3600,
    deleteAfterDays: 14,
  });
  const outage = outageLog(options.log, "job engine");
  boss.on("error", (error) => outage.failed(error));
  // pg-boss 10 does not await marking a job it ran completed or failed (timgit/pg-boss#577): with the
  // database gone at that moment the rejection is unhandled and would end the process. It is the
  // outage, told once; any other unhandled rejection still ends the process.
  const unhandled = (reason: unknown) => {
    if (!isDatabaseUnreachable(reason)) throw reason;
    outage.failed(reason);
  };
  await boss.start();
  /**
   * Processes starting together on a fresh database create the same queues at once, and PostgreSQL
   * aborts one of two as a deadlock; on the next try the queue exists.
   */
  async function createQueue(name: string, queue: PgBoss.Queue): Promise<void> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await boss.createQueue(name, queue);
      } catch (error) {
        if ((error as { code?: string }).code !== DEADLOCK_DETECTED || attempt === QUEUE_ATTEMPTS) throw error;
        await sleep(100 * attempt);
      }
    }
  }
  await createQueue(DEAD_LETTERS, { name: DEAD_LETTERS, retryLimit: 0 });

  const workers = new Map<string, string[]>();
  const sent = new SentJobs();
  const polling = options.pollingIntervalSeconds ?? 2;
  const instanceId = randomUUID();
  const registry = createInstanceRegistry(pool);
  const ttl = options.instanceTtlMs ?? 30_000;
  await registry.beat(instanceId, ttl);
  process.on("unhandledRejection", unhandled);
  const beating = setInterval(() => {
    registry.beat(instanceId, ttl).then(outage.answered, (error) => outage.failed(error, "job engine heartbeat"));
    retryOrphans().catch((error) => outage.failed(error, "job engine recovery"));
  }, ttl / 3);
  beating.unref();

  /** Jobs a crashed process was running go back to their queue now (as a failed attempt, so retry limits hold). */
  async function retryOrphans(): Promise<number> {
    const keys = [...(await registry.takeOrphans("job:")), ...(await registry.unmarkedActiveJobs(JOB_SCHEMA, ttl))];
    for (const key of keys) {
      const [, name, id] = key.split(":");
      await boss.fail(name!, id!, { message: "The process running this job stopped before it finished." });
    }
    return keys.length;
  }

  const engine: JobEngine = {
    boss,
    instanceId,
    async defineQueue(name, queue = {}) {
      await createQueue(name, { name, ...DEFAULTS, ...queue, deadLetter: DEAD_LETTERS });
    },
    async work<T extends object>(name: string, handler: JobHandler<T>, work: { concurrency?: number } = {}) {
      const ids: string[] = [];
      for (let i = 0; i < (work.concurrency ?? 1); i++) {
        let worker = "";
        worker = await boss.work<T>(
          name,
          // One worker per queue polls; the others wait to be woken by it (or by a send here), so an idle
          // process asks the database once per queue and interval rather than once per worker.
          { includeMetadata: true, batchSize: 1, pollingIntervalSeconds: i === 0 ? polling : SPARE_POLLING_SECONDS },
          async ([job]) => {
            const wakeSpares = () => {
              for (const other of workers.get(name) ?? []) if (other !== worker) boss.notifyWorker(other);
            };
            // A job came: the queue may hold more, for the spare workers to take at once; and while the
            // polling worker is busy, the spares look in its place at its interval.
            wakeSpares();
            const mark = `job:${name}:${job!.id}`;
            await registry.mark(mark, instanceId);
            const standIn = i === 0 ? setInterval(wakeSpares, polling * 1000) : undefined;
            try {
              const result = await handler(job!);
              sent.forget(job!.id);
              return result;
            } finally {
              clearInterval(standIn);
              await registry.unmark(mark, instanceId);
              // pg-boss waits a polling interval after every job; a queue that had work is asked again at once.
              boss.notifyWorker(worker);
            }
          },
        );
        ids.push(worker);
      }
      workers.set(name, [...(workers.get(name) ?? []), ...ids]);
    },
    async send(name, data, sendOptions = {}) {
      const id = await boss.send(name, data, sendOptions);
      const local = workers.get(name);
      if (local) {
        if (id) sent.add(id, name);
        // Inside a caller's transaction the job is not visible yet; the next poll finds it.
        if (!sendOptions.db) for (const worker of local) boss.notifyWorker(worker);
      }
      return id;
    },
    async sendBy(deadline, name, data, sendOptions = {}) {
      // A connection that comes after this call gave up is closed, not used. "Gave up" is the race's
      // outcome, not the clock: on a busy machine the deadline's timer can fire after the connection came.
      let gaveUp = false;
      const connecting = pool.connect().then((client) => {
        if (gaveUp) client.release(true);
        return client;
      });
      connecting.catch(() => {});
      let client: Awaited<typeof connecting>;
      try {
        client = await within(deadline, connecting);
      } catch (error) {
        gaveUp = true;
        throw error;
      }
      let committing = false;
      try {
        await within(deadline, client.query("BEGIN"));
        const id = await within(deadline, boss.send(name, data, { ...sendOptions, db: pgExecutor(client) }));
        if (Date.now() >= deadline) throw new DatabaseTimeout(false);
        committing = true;
        await within(deadline + COMMIT_GRACE_MS, client.query("COMMIT"));
        client.release();
        const local = workers.get(name);
        if (local) {
          if (id) sent.add(id, name);
          for (const worker of local) boss.notifyWorker(worker);
        }
        return id;
      } catch (error) {
        // Closing the session rolls back what it had not committed.
        client.release(true);
        if (error instanceof DatabaseTimeout) throw new DatabaseTimeout(committing);
        throw error;
      }
    },
    async insert(jobs, insertOptions = {}) {
      if (jobs.length === 0) return;
      await boss.insert(jobs, insertOptions.db ? { db: insertOptions.db } : {});
      for (const job of jobs) {
        const local = workers.get(job.name);
        if (!local) continue;
        sent.add(job.id, job.name);
        if (!insertOptions.db) for (const worker of local) boss.notifyWorker(worker);
      }
    },
    worked: () => [...workers.keys()],
    retryOrphans,
    track(name, id) {
      sent.add(id, name);
      for (const worker of workers.get(name) ?? []) boss.notifyWorker(worker);
    },
    async drain(timeoutMs = 120_000) {
      const deadline = Date.now() + timeoutMs;
      const unfinished = new Map<string, UnfinishedJob>();
      while (sent.size > 0) {
        for (const [id, name] of sent.entries()) {
          const job = await boss.getJobById<object>(name, id, { includeArchive: true });
          // A failed job retried before the deadline (an audit's retry 2 s later) is work still in
          // flight: its outcome is what the person is waiting for.
          const due =
            job?.state === "active" ||
            (job?.state === "created" && job.startAfter.getTime() <= Date.now()) ||
            (job?.state === "retry" && job.startAfter.getTime() <= deadline);
          if (due && Date.now() < deadline) continue;
          sent.forget(id);
          // A job due later (a reply timeout in 7 days) is not waited for.
          if (job && job.state !== "completed" && (job.state !== "created" || due))
            unfinished.set(id, { id, name, state: job.state, error: errorOf(job.output) });
        }
        if (sent.size > 0) await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return [...unfinished.values()];
    },
    async stopWorkers() {
      for (const name of workers.keys()) await boss.offWork(name);
      workers.clear();
    },
    async stop() {
      clearInterval(beating);
      // Workers stop first and their last fetches finish while pg-boss's pool is still open: a fetch still
      // waiting for a connection when the pool ends never settles, and pg-boss then polls (a 1 s timer)
      // forever for that worker to stop, which kept the process alive.
      await engine.stopWorkers();
      await fetchesSettled(pool, 5_000);
      await boss.stop({ graceful: true, wait: true, timeout: 20_000 });
      await registry.leave(instanceId).catch((error) => options.log(`job engine: ${error.message}`));
      await pool.end();
      process.off("unhandledRejection", unhandled);
    },
  };
  for (const [name, queue] of Object.entries(options.queues ?? {})) await engine.defineQueue(name, queue);
  return engine;
}

/** Waits until no query of the engine's pool is running or waiting for a connection (or `timeoutMs` passed). */
async function fetchesSettled(pool: pg.Pool, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while ((pool.waitingCount > 0 || pool.idleCount < pool.totalCount) && Date.now() < deadline)
    await new Promise((resolve) => setTimeout(resolve, 20));
}

function errorOf(output: object | null | undefined): string | undefined {
  const message = (output as { message?: unknown } | null | undefined)?.message;
  return typeof message === "string" ? message : undefined;
}
