// Preloaded with --import into a timed docbench process: at exit, writes its peak RSS (KiB) to the file
// named by DOCBENCH_BENCH_RSS_FILE, so the bench reads the whole process's peak without platform tools.
import { writeFileSync } from 'node:fs';

const file = process.env.DOCBENCH_BENCH_RSS_FILE;
if (file) process.on('exit', () => writeFileSync(file, String(process.resourceUsage().maxRSS)));
