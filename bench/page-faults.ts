// `npx tsx bench/page-faults.ts`: what this machine charges for memory touched for the first time. A new
// process's heap grows into fresh pages, and the kernel maps each on its first write (a minor page fault). On a
// bare-metal Linux machine that costs a fraction of a microsecond; on the project's machine, a Firecracker VM,
// it was measured at about 16 µs, which is why "CPU per cached cell" of identical code moved by a factor of
// three to four between days (bench/README.md). It prints the cost per fault (CPU, user and system, over the
// faults counted) and, for scale, the same pages written a second time.
const PAGE = 4096;
const MB = 256;

function touch(bytes: Uint8Array, value: number): void {
  for (let i = 0; i < bytes.length; i += PAGE) bytes[i] = value;
}

function main(): void {
  // A large ArrayBuffer is its own anonymous mapping, zero pages until written.
  const bytes = new Uint8Array(MB * 1024 * 1024);
  const pages = bytes.length / PAGE;
  const faultsBefore = process.resourceUsage().minorPageFault;
  const cpuBefore = process.cpuUsage();
  const start = performance.now();
  touch(bytes, 1);
  const firstMs = performance.now() - start;
  const cpu = process.cpuUsage(cpuBefore);
  const faults = process.resourceUsage().minorPageFault - faultsBefore;
  const again = performance.now();
  touch(bytes, 2);
  const secondMs = performance.now() - again;
  const cpuUs = cpu.user + cpu.system;
  console.log(
    `${pages} pages (${MB} MB) written once: ${faults} page faults, ${firstMs.toFixed(0)} ms, CPU ` +
      `${(cpuUs / 1000).toFixed(0)} ms (system ${Math.round((100 * cpu.system) / cpuUs)}%): ` +
      `${(cpuUs / Math.max(1, faults)).toFixed(2)} µs of CPU per page fault; written again: ${secondMs.toFixed(1)} ms`,
  );
}

main();
