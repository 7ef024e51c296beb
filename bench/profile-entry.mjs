// A stand-in for bin/gw.js that profiles it (GW_BENCH_ENTRY=bench/profile-entry.mjs npm run bench): samples gw's
// CPU for PROFILE_MS (5000) after PROFILE_DELAY_MS (2000), every 200 µs, and writes a .cpuprofile to PROFILE_OUT
// (/tmp/gw.cpuprofile) that Chrome DevTools or speedscope opens. Where the time went, not how much: quote the bench for that.
import { Session } from 'node:inspector/promises';
import { writeFileSync } from 'node:fs';
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 200 });
setTimeout(async () => {
  await session.post('Profiler.start');
  setTimeout(async () => {
    const { profile } = await session.post('Profiler.stop');
    writeFileSync(process.env.PROFILE_OUT ?? '/tmp/gw.cpuprofile', JSON.stringify(profile));
  }, Number(process.env.PROFILE_MS ?? 5000));
}, Number(process.env.PROFILE_DELAY_MS ?? 2000));
await import('../bin/gw.js');
