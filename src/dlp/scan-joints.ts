// A secret split across text parts the model reads one after the other (a run:
// walk-strings.ts) is found on the joints between them. At each joint up to
// JOINT_WINDOW characters either side are scanned together, reaching across as
// many short parts as that takes, so a key cut into three or more pieces, or
// across two messages, is still seen. A match is counted at the first joint it
// crosses (it starts in the part just left of it), so one split secret is one
// match however many joints it spans; matches inside one part were the leaf
// scan's. A redaction puts the placeholder where the secret began and removes
// its pieces from the parts after.
import { findMatches, placeholderFor, type ActiveRule, type RuleMatch } from './find-matches.js';
import { prepareText } from './normalize-text.js';
import type { StringLeaf } from './walk-strings.js';

/** How much of each side of a joint between two text parts is scanned together. */
export const JOINT_WINDOW = 512;

export function write(leaf: StringLeaf, value: string): void {
  (leaf.container as Record<string | number, unknown>)[leaf.key] = value;
  leaf.value = value;
  leaf.normalized = undefined;
  leaf.folded = undefined;
}

/** The leaf's text as it now stands in its container (the leaf scan may have redacted it), reusing the leaf scan's normalisation when unchanged. */
function currentText(leaf: StringLeaf): { normalized: string; folded: string } {
  const value = (leaf.container as Record<string | number, unknown>)[leaf.key];
  if (typeof value !== 'string') return { normalized: '', folded: '' };
  if (value !== leaf.value || leaf.normalized === undefined || leaf.folded === undefined) {
    const prepared = prepareText(value);
    leaf.value = value;
    leaf.normalized = prepared.normalized;
    leaf.folded = prepared.folded;
  }
  return { normalized: leaf.normalized, folded: leaf.folded };
}

export function scanJoints(run: readonly StringLeaf[], rules: readonly ActiveRule[], record: (match: RuleMatch) => void): void {
  for (let joint = 1; joint < run.length; joint += 1) scanJoint(run, joint, rules, record);
}

/** The joint between run[joint - 1] and run[joint]. */
function scanJoint(run: readonly StringLeaf[], joint: number, rules: readonly ActiveRule[], record: (match: RuleMatch) => void): void {
  const leftPart = currentText(run[joint - 1]!).folded;
  let left = leftPart.slice(-JOINT_WINDOW);
  for (let index = joint - 2; index >= 0 && left.length < JOINT_WINDOW; index -= 1) {
    left = currentText(run[index]!).folded.slice(-(JOINT_WINDOW - left.length)) + left;
  }
  const cut = left.length;
  const leftPartStart = cut - Math.min(leftPart.length, cut);
  let right = '';
  for (let index = joint; index < run.length && right.length < JOINT_WINDOW; index += 1) {
    right += currentText(run[index]!).folded.slice(0, JOINT_WINDOW - right.length);
  }
  if (leftPartStart === cut || right.length === 0) return;
  for (const match of findMatches(left + right, rules)) {
    if (match.start < leftPartStart || match.start >= cut || match.end <= cut) continue;
    record(match);
    if (match.rule.action === 'redact') redactAcross(run, joint, leftPart.length - (cut - match.start), match.end - cut, match.rule.detector.id);
    // Matches do not overlap: only one can cover the joint.
    return;
  }
}

/** Cuts a match that begins `start` characters into run[joint - 1] and runs `rightLength` characters past the joint. */
function redactAcross(run: readonly StringLeaf[], joint: number, start: number, rightLength: number, ruleId: string): void {
  write(run[joint - 1]!, currentText(run[joint - 1]!).normalized.slice(0, start) + placeholderFor(ruleId));
  let remaining = rightLength;
  for (let index = joint; index < run.length && remaining > 0; index += 1) {
    const text = currentText(run[index]!).normalized;
    write(run[index]!, text.slice(Math.min(remaining, text.length)));
    remaining -= text.length;
  }
}
