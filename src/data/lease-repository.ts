// Short leases on a name (a case's vanpool, an approval): taken with one statement,
// renewed while the holder works and free for anyone once expired. A waiter retries
// without holding a connection, so many waiters can never starve the pool.
import type pg from "pg";

export async function tryTakeLease(pool: pg.Pool, key: string, holder: string, ttlMs: number): Promise<boolean> {
  const taken = await pool.query(
    `INSERT INTO work_leases (key, holder, expires_at) VALUES ($1, $2, now() + $3 * interval '1 millisecond')
     ON CONFLICT (key) DO UPDATE SET holder = EXCLUDED.holder, expires_at = EXCLUDED.expires_at
     WHERE work_leases.expires_at < now()
     RETURNING holder`,
    [key, holder, ttlMs],
  );
  return taken.rowCount === 1;
}

export async function renewLease(pool: pg.Pool, key: string, holder: string, ttlMs: number): Promise<boolean> {
  const renewed = await pool.query(
    `UPDATE work_leases SET expires_at = now() + $3 * interval '1 millisecond' WHERE key = $1 AND holder = $2`,
    [key, holder, ttlMs],
  );
  return renewed.rowCount === 1;
}

export async function releaseLease(pool: pg.Pool, key: string, holder: string): Promise<void> {
  await pool.query(`DELETE FROM work_leases WHERE key = $1 AND holder = $2`, [key, holder]);
}
