// The layers of src/, lowest first. Entry points take events (Slack listeners, job handlers, HTTP
// routes, the sandbox's local Slack); the composition root builds what they need and starts them;
// the command line is the process's own entry, parsing arguments and calling the composition root.
// A module may import its own layer and the layers below it, never one above, and no import chain
// may come back to where it started (README, Architecture).
// `npm run lint:layers` checks it; CI runs it.
const LAYERS = [
  { name: "domain and settings", folders: ["domain", "config", "errors\\.ts$", "generated"] },
  { name: "storage and queue", folders: ["data", "queue"] },
  { name: "outside services and outbound Slack", folders: ["integrations", "slack"] },
  { name: "agents, checks and the reply reader", folders: ["agents", "verification", "replies"] },
  { name: "use cases", folders: ["cases"] },
  { name: "entry points", folders: ["bot", "workers", "http", "sandbox"] },
  { name: "composition root", folders: ["app"] },
  { name: "command line", folders: ["cli"] },
];

const pathOf = (folders) => `^src/(${folders.join("|")})`;

const upward = LAYERS.slice(0, -1).map((layer, index) => ({
  name: `${layer.name.replace(/\W+/g, "-")}-import-no-higher-layer`,
  comment: `${layer.name} may not import a higher layer`,
  severity: "error",
  from: { path: pathOf(layer.folders) },
  to: { path: pathOf(LAYERS.slice(index + 1).flatMap((higher) => higher.folders)) },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...upward,
    {
      name: "every-module-has-a-layer",
      comment: "a folder of src/ missing from LAYERS: give it its place",
      severity: "error",
      from: { path: "^src/", pathNot: pathOf(LAYERS.flatMap((layer) => layer.folders)) },
      to: {},
    },
    {
      name: "no-circular",
      comment: "an import chain that comes back to its start",
      severity: "error",
      from: { path: "^src/" },
      to: { circular: true },
    },
    {
      name: "domain-is-pure",
      comment: "src/domain is policy code: it imports nothing outside itself but the settings' types",
      severity: "error",
      from: { path: "^src/domain/" },
      to: { path: "^src/", pathNot: ["^src/domain/", "^src/config/", "^src/errors\\.ts$"] },
    },
    {
      name: "only-repositories-use-the-database",
      comment: "Prisma's client is used by src/data alone",
      severity: "error",
      from: { path: "^src/", pathNot: ["^src/data/", "^src/generated/"] },
      to: { path: ["^src/generated/", "node_modules/@prisma/client"] },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "^src/generated/" },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: "tsconfig.json" },
    enhancedResolveOptions: { exportsFields: ["exports"], conditionNames: ["import", "require", "node", "default"] },
  },
};
