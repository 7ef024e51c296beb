// The `<!-- doc-test: … -->` comment written just before a shell block of the docs says how the
// docs test runs it when it is not a plain block that must exit 0 (docs/testing.md):
//   skip: REASON              not run here; counted and listed with the reason
//   background until /RE/     run in the background until its output matches; (?<NAME>…) groups are kept
//   after /RE/                first wait until a background block's output matches
//   with TEXT=NAME            run with TEXT replaced by what the group NAME caught
//   expect /RE/               the block's output must match
//   stop first                Ctrl-C (SIGINT) to the background blocks before this one runs
// Background blocks otherwise run until the file's last block has run.
// Options are separated by `;`. Anything else is an error, so a typo cannot turn a check off.

export interface DocDirective {
  skip: string | null;
  background: RegExp | null;
  after: RegExp | null;
  expect: RegExp | null;
  stopFirst: boolean;
  substitutions: Array<{ text: string; name: string }>;
}

const REGEX_OPTION = /^(background until|after|expect)\s+\/((?:\\.|[^\\/])+)\/$/;

export function parseDirective(text: string | null): DocDirective {
  const directive: DocDirective = { skip: null, background: null, after: null, expect: null, stopFirst: false, substitutions: [] };
  if (text === null) return directive;
  const skip = /^skip:\s*([\s\S]+)$/.exec(text);
  if (skip) return { ...directive, skip: skip[1]!.trim() };
  for (const option of text.split(/;\s+/).map((part) => part.trim()).filter(Boolean)) {
    const regexOption = REGEX_OPTION.exec(option);
    const substitution = /^with\s+(\S+)=(\w+)$/.exec(option);
    if (regexOption) {
      const pattern = new RegExp(regexOption[2]!);
      if (regexOption[1] === 'background until') directive.background = pattern;
      else if (regexOption[1] === 'after') directive.after = pattern;
      else directive.expect = pattern;
    } else if (option === 'stop first') {
      directive.stopFirst = true;
    } else if (substitution) {
      directive.substitutions.push({ text: substitution[1]!, name: substitution[2]! });
    } else {
      throw new Error(`unknown doc-test option "${option}" (see docs/testing.md)`);
    }
  }
  return directive;
}
