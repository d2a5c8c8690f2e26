#!/usr/bin/env node
// The fdq command runs the TypeScript sources directly (tsx's CommonJS register hook): no build step.
require("tsx/cjs/api").register();
const { main } = require("../src/cli/main.ts");

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    console.error(err instanceof Error ? err.message : String(err));
    process.exitCode = 1;
  },
);
