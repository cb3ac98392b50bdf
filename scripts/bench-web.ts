// Part of `npm run bench`: each web page's server time over 10,000 synthetic vanpools
// (`npx tsx scripts/bench-web.ts 100000` for another size), against a throwaway embedded PostgreSQL.
// A case is open on every tenth vanpool, opened directly (no audit ran). Each page is asked for one
// request at a time, signed in as an approver, straight through the pages' fetch handler (no socket):
// the time is the server's, from request to the last byte of the page. Prints numbers; asserts nothing.
import { buildAppDeps } from "../src/app/container.js";
import { parseSettings } from "../src/config/settings.js";
import { createSignInLink, redeemSignInLink } from "../src/data/web-session-repository.js";
import { createWeb } from "../src/http/web/app.js";
import { outboxSender } from "../src/integrations/email/outbox.js";
import { machine, syntheticProgram, withBenchDatabase } from "./bench-database.js";

const REQUESTS = 200;

const size = Number(process.argv[2] ?? 10_000);
await withBenchDatabase("web", async ({ clients, outbox }) => {
  const { vanpools, caseIds } = await syntheticProgram(clients.prisma, size);
  const riders = await clients.prisma.rider.findMany({ select: { employeeId: true }, take: 500 });
  const deps = await buildAppDeps(clients, parseSettings({}), { sender: outboxSender(outbox) });
  const web = createWeb({ agent: deps, secureCookie: false });
  const link = await createSignInLink(
    clients.prisma,
    { userId: "UBENCH", userName: "bench", role: "approver" },
    new Date(),
  );
  const signedIn = await redeemSignInLink(clients.pool, link, new Date());
  if (!signedIn.ok) throw new Error(`sign-in refused: ${signedIn.reason}`);
  const cookie = `pp_session=${signedIn.session}`;

  console.log(
    `Web pages: ${size} vanpools, ${caseIds.length} open cases, ${REQUESTS} requests a page one at a time, server time (${machine()})`,
  );
  const pick = <T>(list: T[], i: number) => list[(i * 7919) % list.length]!;
  async function measure(label: string, pathOf: (i: number) => string, requests = REQUESTS) {
    const times: number[] = [];
    for (let i = 0; i < requests; i++) {
      const started = performance.now();
      const response = await web.fetch(new Request(`http://localhost${pathOf(i)}`, { headers: { cookie } }));
      const body = await response.text();
      times.push(performance.now() - started);
      if (response.status !== 200) throw new Error(`${pathOf(i)}: ${response.status} ${body.slice(0, 200)}`);
    }
    times.sort((a, b) => a - b);
    const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))]!.toFixed(1);
    if (label) console.log(`${label.padEnd(34)} p50 ${at(0.5)} ms  p95 ${at(0.95)} ms  max ${at(1)} ms`);
  }
  // Warm up (Prisma's first queries compile their plans; the map's shapes are read once), then measure.
  await measure("", (i) => [`/web/`, `/web/vanpools/${vanpools[0]!.id}`, `/web/cases/${caseIds[0]}`][i % 3]!, 30);
  await measure("GET /web/ (dashboard)", () => "/web/");
  await measure("GET /web/?status=flagged", () => "/web/?status=flagged");
  await measure("GET /web/?check=location", () => "/web/?check=location");
  await measure("GET /web/?q=night", () => "/web/?q=night");
  await measure("GET /web/vanpools/{id}", (i) => `/web/vanpools/${pick(vanpools, i).id}`);
  await measure("GET /web/employees/{id}", (i) => `/web/employees/${pick(riders, i).employeeId}`);
  await measure("GET /web/cases/{id}", (i) => `/web/cases/${pick(caseIds, i)}`);
});
