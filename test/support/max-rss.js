// Preloaded into a process (node -r test/support/max-rss.js bin/fdq.js ...): writes the process's peak resident
// memory (KB) to FDQ_TEST_MAX_RSS_FILE when it exits, so tests and benchmarks bound or report memory without
// timing anything and without touching stdout or stderr.
const file = process.env.FDQ_TEST_MAX_RSS_FILE;
if (file) {
  process.on("exit", () => {
    require("node:fs").writeFileSync(file, String(process.resourceUsage().maxRSS));
  });
}
