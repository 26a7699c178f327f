// Preloaded with --import into a timed docbench process: at exit, writes its peak RSS (KiB) and CPU time
// (user + system, µs) as JSON to the file named by DOCBENCH_BENCH_RSS_FILE, so the bench reads the whole
// process's figures without platform tools. CPU time does not depend on what else the machine runs.
import { writeFileSync } from 'node:fs';

const file = process.env.DOCBENCH_BENCH_RSS_FILE;
if (file) {
  process.on('exit', () => {
    const usage = process.resourceUsage();
    writeFileSync(file, JSON.stringify({ maxRssKb: usage.maxRSS, cpuUs: usage.userCPUTime + usage.systemCPUTime }));
  });
}
