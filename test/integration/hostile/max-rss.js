// Preloaded into fdq by the hostile CLI test (node -r): writes the process's peak resident memory (KB) to
// FDQ_TEST_MAX_RSS_FILE when it exits, so the test can report it without touching stdout or stderr.
const file = process.env.FDQ_TEST_MAX_RSS_FILE;
if (file) {
  process.on("exit", () => {
    require("node:fs").writeFileSync(file, String(process.resourceUsage().maxRSS));
  });
}
