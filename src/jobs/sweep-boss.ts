// pg-boss on Pool Patrol's own database (schema "pgboss"), started where sweeps need a
// job engine: the bot, the sandbox, `poolpatrol audit --all` and the tests.
import PgBoss from "pg-boss";

export async function startJobBoss(databaseUrl: string, onError: (error: Error) => void): Promise<PgBoss> {
  const boss = new PgBoss({
    connectionString: databaseUrl,
    schema: "pgboss",
    max: 4,
    // Jobs of a killed process are retried once they expire; check for them often.
    maintenanceIntervalSeconds: 15,
  });
  boss.on("error", onError);
  await boss.start();
  return boss;
}
