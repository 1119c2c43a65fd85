// Generates protocol.schema.json (JSON Schema of the widget protocol) from types.ts, the one source of its shape.
// `node schema.mjs` writes it; `node schema.mjs --check` fails when the committed file is out of date.
import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createGenerator } from "ts-json-schema-generator";

const here = dirname(fileURLToPath(import.meta.url));
export const SCHEMA_FILE = join(here, "protocol.schema.json");

/** What crosses between Python and the board: the synced traits, the intents and the replies. */
export const ROOTS = ["GameState", "Labels", "Intent", "Reply"];

/** The schema text: the roots and every type they use, under `definitions`. */
export function schemaText() {
  const generator = createGenerator({
    path: join(here, "types.ts"),
    tsconfig: join(here, "tsconfig.json"),
    expose: "export",
    topRef: true,
    jsDoc: "extended",
    additionalProperties: false,
    skipTypeCheck: true,
  });
  const definitions = {};
  for (const root of ROOTS) Object.assign(definitions, generator.createSchema(root).definitions);
  const sorted = Object.fromEntries(Object.keys(definitions).sort().map((name) => [name, definitions[name]]));
  const schema = {
    $schema: "http://json-schema.org/draft-07/schema#",
    $comment: "The PatienceLab widget protocol, generated from js/types.ts by js/schema.mjs. Do not edit.",
    definitions: sorted,
  };
  return `${JSON.stringify(schema, null, 2)}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const text = schemaText();
  if (process.argv.includes("--check")) {
    if (readFileSync(SCHEMA_FILE, "utf8") !== text) {
      console.error("protocol.schema.json is out of date: run 'npm run schema'");
      process.exit(1);
    }
  } else {
    writeFileSync(SCHEMA_FILE, text);
    console.log(`wrote ${SCHEMA_FILE}`);
  }
}
