// Runs the fdq command (bin/fdq.js) in this process and, as it exits, prints its peak resident set size
// on stderr's last line ("fdq-test: max-rss-kb N"): how a test bounds a run's memory without timing it.
process.on("exit", () => {
  process.stderr.write(`fdq-test: max-rss-kb ${process.resourceUsage().maxRSS}\n`);
});
require("../../bin/fdq.js");
