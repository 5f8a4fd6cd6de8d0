// Generates src/schema.ts (the API's types, by openapi-typescript) and src/apiVersion.ts
// (the document's info.version) from openapi/openapi.json.
//
//   node scripts/generate.mjs            write both files
//   node scripts/generate.mjs --check    exit 1, naming the stale file, when either differs
//   node scripts/generate.mjs --out DIR  write both into DIR instead of src/
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import openapiTS, { astToString } from "openapi-typescript";

const here = dirname(fileURLToPath(import.meta.url));
export const DOCUMENT = resolve(here, "../../../openapi/openapi.json");
export const SOURCE = resolve(here, "../src");
const FILES = ["schema.ts", "apiVersion.ts"];

const BANNER =
  "// GENERATED from openapi/openapi.json by openapi-typescript (`npm run generate`): do not edit.\n\n";

/** The generated files' contents, by file name. */
export async function generate(document = DOCUMENT) {
  const text = await readFile(document, "utf8");
  const spec = JSON.parse(text);
  // A field with a default may be left out of a request: it stays optional in the types.
  const ast = await openapiTS(spec, { alphabetize: true, defaultNonNullable: false });
  const version = JSON.stringify(spec.info.version);
  return {
    "schema.ts": BANNER + astToString(ast),
    "apiVersion.ts":
      BANNER +
      "/** The version of the API document (`info.version`) these types were generated from. */\n" +
      `export const API_VERSION = ${version};\n`,
  };
}

/** Writes the generated files into `directory`; returns their paths. */
export async function writeGenerated(directory = SOURCE) {
  const files = await generate();
  for (const name of FILES) await writeFile(join(directory, name), files[name]);
  return FILES.map((name) => join(directory, name));
}

/** The committed files that differ from a fresh generation (written to a temporary
 * directory and compared byte for byte). */
export async function staleFiles() {
  const fresh = await writeGenerated(await mkdtemp(join(tmpdir(), "diceref-schema-")));
  const stale = [];
  for (const [i, name] of FILES.entries()) {
    const [want, have] = await Promise.all([
      readFile(fresh[i], "utf8"),
      readFile(join(SOURCE, name), "utf8").catch(() => ""),
    ]);
    if (want !== have) stale.push(`src/${name}`);
  }
  return stale;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const args = process.argv.slice(2);
  if (args[0] === "--check") {
    const stale = await staleFiles();
    if (stale.length) {
      console.error(`stale: ${stale.join(", ")}; run \`npm run generate\` in clients/typescript`);
      process.exit(1);
    }
    console.log("src/schema.ts and src/apiVersion.ts match openapi/openapi.json");
  } else {
    const out = args[0] === "--out" ? resolve(args[1]) : SOURCE;
    for (const path of await writeGenerated(out)) console.log(`wrote ${path}`);
  }
}
