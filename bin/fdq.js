#!/usr/bin/env node
// The fdq command runs the TypeScript sources directly (tsx's CommonJS register hook, in this process: no build
// step and no second process between the user's signals and fdq).
require("tsx/cjs/api").register();
const { stopWithParent } = require("../src/cli/lifetime.ts");
const { main, reportCrash } = require("../src/cli/main.ts");

// Under npx / npm run, npm's SIGTERM reaches only the shell npm runs us through: stop when that parent is gone.
stopWithParent();
main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    process.exitCode = reportCrash(err);
  },
);
