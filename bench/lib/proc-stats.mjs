// CPU time and memory of a process, and of the whole machine, from Linux /proc (no root needed).
// proc(5): /proc/<pid>/stat fields 14-15 are utime/stime in clock ticks, all threads (GC included).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

let ticksPerSecond;
/** sysconf(_SC_CLK_TCK): 100 on practically every Linux, asked once to be sure. */
function clockTicksPerSecond() {
  if (ticksPerSecond === undefined) {
    try { ticksPerSecond = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100; } catch { ticksPerSecond = 100; }
  }
  return ticksPerSecond;
}

/** utime + stime of pid in microseconds, or undefined when the process is gone or /proc is absent. */
export function readProcessCpuMicros(pid, ticks = clockTicksPerSecond()) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    // The command name (field 2) may hold spaces and parentheses: count fields after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / ticks;
  } catch {
    return undefined;
  }
}

/** VmRSS (now) and VmHWM (peak) in MB. */
export function readProcessMemory(pid) {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'latin1');
    const kilobytes = (name) => Number(new RegExp(`^${name}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { rssMb: kilobytes('VmRSS') / 1024, peakRssMb: kilobytes('VmHWM') / 1024 };
  } catch {
    return undefined;
  }
}

/** Machine-wide busy, steal and total time in microseconds from the `cpu` line of /proc/stat. */
export function readMachineCpuMicros(ticks = clockTicksPerSecond()) {
  try {
    const [user, nice, system, idle, iowait, irq, softirq, steal] = readFileSync('/proc/stat', 'latin1').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
    const toMicros = (value) => (value * 1e6) / ticks;
    return { busy: toMicros(user + nice + system + irq + softirq), steal: toMicros(steal), total: toMicros(user + nice + system + idle + iowait + irq + softirq + steal) };
  } catch {
    return undefined;
  }
}
