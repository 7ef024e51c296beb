// Every command gw shows a person to paste (the verification page, `gw serve`'s banner, CLI
// hints, refusals naming a command) quotes its arguments here, for POSIX shells: a word of
// plainly safe characters stays as it is, anything else is single-quoted with each ' written
// '\''. Inside single quotes no shell expands anything, so a value someone else chose (the
// email a device claims, a hub's URL, a model name) can never become code in the reader's shell.

const SAFE_WORD = /^[\w@%+=:,./-]+$/;

/** One argument as a POSIX shell reads it back exactly. */
export function shellQuote(word: string): string {
  return SAFE_WORD.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`;
}

/** A command line of quoted words. */
export function shellCommand(words: readonly string[]): string {
  return words.map(shellQuote).join(' ');
}
