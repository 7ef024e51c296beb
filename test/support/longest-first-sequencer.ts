// Runs the longest test files first (vitest.config.ts `sequence.sequencer`). With two workers and
// no duration cache (a fresh clone has none), vitest orders files by size, so a long file may
// start last and leave the other worker idle until it ends. test/support/file-durations.json
// holds each file's seconds from a full run (`npm run test:durations` refreshes it from a run's
// JSON report); a file it does not name counts as short. The projects keep their order.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Seconds a file not in the list is taken to last: shorter than most, so it fills the end. */
const UNKNOWN_SECONDS = 2;

function readDurations(): Map<string, number> {
  const value: unknown = JSON.parse(readFileSync(path.join(import.meta.dirname, 'file-durations.json'), 'utf8'));
  const durations = new Map<string, number>();
  if (typeof value === 'object' && value !== null) {
    for (const [file, seconds] of Object.entries(value)) if (typeof seconds === 'number') durations.set(file, seconds);
  }
  return durations;
}

export default class LongestFirstSequencer extends BaseSequencer {
  private readonly durations = readDurations();

  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const ordered = await super.sort(files);
    const seconds = (file: TestSpecification) => this.durations.get(path.relative(file.project.config.root, file.moduleId)) ?? UNKNOWN_SECONDS;
    const rank = new Map(ordered.map((file, index) => [file, index]));
    // Stable within a project: the base order (project, then its own) decides ties.
    return [...ordered].sort((a, b) => {
      if (a.project.name !== b.project.name) return (rank.get(a) ?? 0) - (rank.get(b) ?? 0);
      return seconds(b) - seconds(a) || (rank.get(a) ?? 0) - (rank.get(b) ?? 0);
    });
  }
}
