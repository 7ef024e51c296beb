// Uploads and downloads stream through gw: a 256 MiB file each way must not raise gw's
// peak RSS by anything near its size (`npm run bench` reports the same for 1 GiB).
import { describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs bench module without type declarations
import { measureTransferMemory } from '../../../bench/memory.mjs';

interface TransferMemory { bytes: number; uploadedBytesAtProvider: number; downloadedBytes: number; idlePeakRssBytes: number; peakRssBytes: number }

describe('streamed uploads and downloads', () => {
  it('moves 256 MiB each way with gw\'s peak RSS growing by well under that', async () => {
    const bytes = 256 * 1024 * 1024;
    const result = await (measureTransferMemory as (size: number) => Promise<TransferMemory>)(bytes);
    expect(result.downloadedBytes).toBe(bytes);
    expect(result.uploadedBytesAtProvider).toBeGreaterThan(bytes);
    expect(result.peakRssBytes - result.idlePeakRssBytes).toBeLessThan(128 * 1024 * 1024);
  }, 120_000);
});
