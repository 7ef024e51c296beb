// Shell completion scripts generated from the commander program itself, so they cannot drift from
// the commands: completions/ is rewritten by `npm run completions` and a test fails on any diff.
// The tree is read once into plain specs (describeProgram), then each shell has one emitter.
import type { Command, Option } from 'commander';

export type CompletionShell = 'bash' | 'zsh' | 'fish';
export const completionShells: readonly CompletionShell[] = ['bash', 'zsh', 'fish'];
/** Where each script lives under completions/, named as each shell's loader expects. */
export const completionFileNames: Readonly<Record<CompletionShell, string>> = { bash: 'gw.bash', zsh: '_gw', fish: 'gw.fish' };

interface OptionSpec {
  flags: string[]; // short first, then long, e.g. ['-p', '--port']
  description: string;
  takesValue: boolean; // `<value>` or `[value]`: the next word belongs to the option
  repeatable: boolean;
  valueName: string;
  choices: string[];
}

interface ArgumentSpec {
  name: string;
  required: boolean;
  variadic: boolean;
  choices: string[];
}

interface CommandSpec {
  path: string[]; // ['gw', 'keys', 'create']
  names: string[]; // the name, then its aliases
  description: string;
  options: OptionSpec[];
  arguments: ArgumentSpec[];
  subcommands: CommandSpec[];
}

export function generateCompletion(program: Command, shell: CompletionShell): string {
  const root = describeCommand(program, []);
  if (shell === 'bash') return emitBash(root);
  if (shell === 'zsh') return emitZsh(root);
  return emitFish(root);
}

function describeCommand(command: Command, parentPath: string[]): CommandSpec {
  // Help decides what is visible (hidden commands and options left out, the implicit `help`
  // command and the help option added), so completion offers exactly what `--help` shows.
  const help = command.createHelp();
  const path = [...parentPath, command.name()];
  const subcommands = help.visibleCommands(command).map((child) => describeCommand(child, path));
  const siblingNames = subcommands.map((child) => child.names[0] ?? '').filter((name) => name !== 'help');
  for (const child of subcommands) {
    // `gw help <command>` takes a sibling's name, which commander does not state as choices.
    const topic = child.arguments[0];
    if (child.names[0] === 'help' && child.subcommands.length === 0 && topic && topic.choices.length === 0) topic.choices = siblingNames;
  }
  return {
    path,
    names: [command.name(), ...command.aliases()],
    description: firstLine(command.description()),
    options: help.visibleOptions(command).map(describeOption),
    arguments: command.registeredArguments.map((argument) => ({
      name: argument.name(),
      required: argument.required,
      variadic: argument.variadic,
      choices: [...(argument.argChoices ?? [])],
    })),
    subcommands,
  };
}

function describeOption(option: Option): OptionSpec {
  const flags = [option.short, option.long].filter((flag): flag is string => typeof flag === 'string');
  const valueName = /[<[]([^>\]]+)[>\]]/.exec(option.flags)?.[1]?.replace(/\.\.\.$/, '') ?? 'value';
  return {
    flags,
    description: firstLine(option.description),
    takesValue: option.required || option.optional,
    repeatable: option.variadic,
    valueName,
    choices: [...(option.argChoices ?? [])],
  };
}

function firstLine(text: string): string {
  return (text.split('\n')[0] ?? '').trim();
}

function allCommands(spec: CommandSpec): CommandSpec[] {
  return [spec, ...spec.subcommands.flatMap(allCommands)];
}

function identifier(path: string[]): string {
  return `_${path.join('_').replace(/[^A-Za-z0-9_]/g, '_')}`;
}

/** Single-quotes a word for bash, zsh and fish alike ('\'' works in the first two; fish uses \'). */
function quotePosix(text: string): string {
  return `'${text.replace(/'/g, `'\\''`)}'`;
}

function quoteFish(text: string): string {
  return `'${text.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
}

// ---- bash: one `complete -F` function that walks COMP_WORDS with case tables ------------------

function emitBash(root: CommandSpec): string {
  const fn = identifier(root.path);
  const commands = allCommands(root);
  const key = (spec: CommandSpec): string => spec.path.join(' ');
  const caseLine = (patterns: string[], body: string): string => `    ${patterns.join('|')}) ${body} ;;`;
  const subcommandCases = commands.flatMap((spec) =>
    spec.subcommands.map((child) => caseLine(child.names.map((name) => quotePosix(`${key(spec)}/${name}`)), `REPLY=${quotePosix(key(child))}`)),
  );
  const valueOptions = commands.flatMap((spec) =>
    spec.options.filter((option) => option.takesValue).flatMap((option) => option.flags.map((flag) => quotePosix(`${key(spec)}/${flag}`))),
  );
  const valueCases = commands.flatMap((spec) =>
    spec.options
      .filter((option) => option.choices.length > 0)
      .map((option) => caseLine(option.flags.map((flag) => quotePosix(`${key(spec)}/${flag}`)), `REPLY=${quotePosix(option.choices.join(' '))}`)),
  );
  const optionCases = commands.map((spec) => caseLine([quotePosix(key(spec))], `REPLY=${quotePosix(spec.options.flatMap((option) => option.flags).join(' '))}`));
  const wordCases = commands.flatMap((spec) => bashWordCases(spec, key(spec), caseLine));
  return [
    `# bash completion for ${root.path[0]}. Generated from the commander program by \`npm run completions\`: do not edit.`,
    `# Use: source this file, or install it as /usr/share/bash-completion/completions/${root.path[0]}.`,
    '',
    ...bashCaseFunction(`${fn}_subcommand`, 'PATH/WORD -> REPLY: the command path that WORD (a subcommand or alias) leads to.', subcommandCases),
    '# PATH/FLAG: succeeds when FLAG takes a value, so the next word is not a subcommand.',
    `${fn}_takes_value() {`,
    '  case "$1/$2" in',
    ...(valueOptions.length > 0 ? [caseLine(valueOptions, 'return 0')] : []),
    '  esac',
    '  return 1',
    '}',
    '',
    ...bashCaseFunction(`${fn}_option_values`, "PATH/FLAG -> REPLY: the choices for FLAG's value; none: file names (complete -o default).", valueCases),
    ...bashCaseFunction(`${fn}_options`, 'PATH -> REPLY: the flags of the command at PATH.', optionCases, '$1'),
    ...bashCaseFunction(`${fn}_words`, 'PATH/INDEX -> REPLY: subcommands (before any positional) and the choices of positional INDEX.', wordCases),
    `${fn}() {`,
    '  local cur="${COMP_WORDS[COMP_CWORD]}" path=' + quotePosix(key(root)) + " word pending='' prefix='' index=0 dashdash=0 i REPLY=''",
    '  for ((i = 1; i < COMP_CWORD; i++)); do',
    '    word="${COMP_WORDS[i]}"',
    '    if [[ -n $pending ]]; then',
    '      # bash splits `--flag=value` at `=` (COMP_WORDBREAKS): the value is the word after it.',
    "      [[ $word == '=' ]] || pending=''",
    '      continue',
    '    fi',
    '    if ((!dashdash)); then',
    '      case "$word" in',
    '        --) dashdash=1; continue ;;',
    '        -*=*) continue ;;',
    `        -*) ${fn}_takes_value "$path" "$word" && pending="$word"; continue ;;`,
    '      esac',
    '    fi',
    '    if ((index == 0)); then',
    `      ${fn}_subcommand "$path" "$word"`,
    '      if [[ -n $REPLY ]]; then path="$REPLY"; continue; fi',
    '    fi',
    '    index=$((index + 1))',
    '  done',
    "  # Completing right after `--flag=`: keep the `=` in the word bash replaces.",
    "  if [[ $cur == '=' && -n $pending ]]; then prefix='='; cur=''; fi",
    '  COMPREPLY=()',
    '  if [[ -n $pending ]]; then',
    `    ${fn}_option_values "$path" "$pending"`,
    '  elif [[ $cur == -* && $dashdash == 0 ]]; then',
    `    ${fn}_options "$path"`,
    '  else',
    `    ${fn}_words "$path" "$index"`,
    '  fi',
    '  [[ -z $REPLY ]] || COMPREPLY=($(compgen -P "$prefix" -W "$REPLY" -- "$cur"))',
    '  return 0',
    '}',
    '',
    `complete -o default -F ${fn} ${root.path[0]}`,
    '',
  ].join('\n');
}

function bashCaseFunction(name: string, comment: string, cases: string[], subject = '$1/$2'): string[] {
  return [`# ${comment}`, `${name}() {`, `  case "${subject}" in`, ...cases, "    *) REPLY='' ;;", '  esac', '}', ''];
}

function bashWordCases(spec: CommandSpec, key: string, caseLine: (patterns: string[], body: string) => string): string[] {
  const words = spec.arguments.map((argument) => [...argument.choices]);
  const subcommandNames = spec.subcommands.map((child) => child.names[0] ?? '');
  words[0] = [...subcommandNames, ...(words[0] ?? [])];
  const cases = words.flatMap((choices, index) => (choices.length > 0 ? [caseLine([quotePosix(`${key}/${index}`)], `REPLY=${quotePosix(choices.join(' '))}`)] : []));
  const last = spec.arguments[spec.arguments.length - 1];
  // A variadic last argument takes every later word too; `case` picks the first match, so this comes last.
  if (last?.variadic && last.choices.length > 0) cases.push(caseLine([`${quotePosix(`${key}/`)}*`], `REPLY=${quotePosix(last.choices.join(' '))}`));
  return cases;
}

// ---- zsh: one function per command, `_arguments` for flags and `_describe` for subcommands ----

function emitZsh(root: CommandSpec): string {
  const functions = allCommands(root).map(zshFunction);
  return [
    `#compdef ${root.path[0]}`,
    `# zsh completion for ${root.path[0]}. Generated from the commander program by \`npm run completions\`: do not edit.`,
    `# Use: put this file, named _${root.path[0]}, in a folder on $fpath before compinit runs.`,
    '',
    ...functions,
    `${identifier(root.path)} "$@"`,
    '',
  ].join('\n');
}

function zshFunction(spec: CommandSpec): string {
  const specs = spec.options.map(zshOptionSpec);
  const lines = [`${identifier(spec.path)}() {`];
  if (spec.subcommands.length === 0) {
    const positional = spec.arguments.map((argument, index) => {
      const action = argument.choices.length > 0 ? `(${argument.choices.map(escapeZsh).join(' ')})` : '_default';
      const position = argument.variadic ? '*' : String(index + 1);
      return quotePosix(`${position}${argument.required || argument.variadic ? '' : ':'}:${escapeZsh(argument.name)}:${action}`);
    });
    lines.push(`  _arguments -s -S${[...specs, ...positional].map((item) => ` \\\n    ${item}`).join('')}`, '}', '');
    return lines.join('\n');
  }
  const entries = spec.subcommands.map((child) => `    ${quotePosix(`${escapeZsh(child.names[0] ?? '')}:${child.description}`)}`);
  const dispatch = spec.subcommands.map((child) => `      (${child.names.join('|')}) ${identifier(child.path)} ;;`);
  lines.push(
    '  local curcontext="$curcontext" state state_descr line',
    '  typeset -A opt_args',
    `  _arguments -C -s -S${[...specs, quotePosix('1: :->command'), quotePosix('*:: :->argument')].map((item) => ` \\\n    ${item}`).join('')}`,
    '  case $state in',
    '    (command)',
    '      local -a commands',
    '      commands=(',
    ...entries.map((entry) => `  ${entry}`),
    '      )',
    `      _describe -t commands ${quotePosix(`${spec.path.join(' ')} command`)} commands`,
    '      ;;',
    '    (argument)',
    '      # `*::` narrowed $words to the subcommand and what follows it.',
    '      curcontext="${curcontext%:*:*}:' + spec.path.join('-') + '-$line[1]:"',
    '      case $line[1] in',
    ...dispatch.map((line) => `  ${line}`),
    '      esac',
    '      ;;',
    '  esac',
    '}',
    '',
  );
  return lines.join('\n');
}

function zshOptionSpec(option: OptionSpec): string {
  const description = `[${option.description.replace(/([[\]\\])/g, '\\$1')}]`;
  const value = option.takesValue
    ? `:${escapeZsh(option.valueName)}:${option.choices.length > 0 ? `(${option.choices.map(escapeZsh).join(' ')})` : '_default'}`
    : '';
  const [first] = option.flags;
  if (option.flags.length === 1 && first) return quotePosix(`${option.repeatable ? '*' : ''}${first}${description}${value}`);
  // `(-p --port)` keeps zsh from offering the other spelling once one was given.
  const exclusion = option.repeatable ? '*' : `(${option.flags.join(' ')})`;
  return `${quotePosix(exclusion)}{${option.flags.join(',')}}${quotePosix(`${description}${value}`)}`;
}

function escapeZsh(text: string): string {
  return text.replace(/([:\\()\s])/g, '\\$1');
}

// ---- fish: `complete -c` lines gated by __fish_use_subcommand / __fish_seen_subcommand_from ----

function emitFish(root: CommandSpec): string {
  const name = root.path[0] ?? 'gw';
  const lines = [
    `# fish completion for ${name}. Generated from the commander program by \`npm run completions\`: do not edit.`,
    `# Use: copy to ~/.config/fish/completions/${name}.fish.`,
  ];
  const visit = (spec: CommandSpec, ancestry: CommandSpec[]): void => {
    lines.push('', ...fishLines(name, spec, ancestry));
    for (const child of spec.subcommands) visit(child, [...ancestry, child]);
  };
  visit(root, []);
  return `${lines.join('\n')}\n`;
}

/** ancestry: the commands below the root leading to spec, spec included. */
function fishLines(name: string, spec: CommandSpec, ancestry: CommandSpec[]): string[] {
  // Every name on the path (or an alias) must have been typed: `gw keys create` needs keys and create.
  const seen = ancestry.map((node) => `__fish_seen_subcommand_from ${node.names.join(' ')}`);
  const childNames = spec.subcommands.flatMap((child) => child.names);
  // Where this command's own words apply: inside it, and before any of its subcommands was typed.
  const here = ancestry.length === 0 ? ['__fish_use_subcommand'] : [...seen, ...(childNames.length > 0 ? [`not __fish_seen_subcommand_from ${childNames.join(' ')}`] : [])];
  const condition = (parts: string[]): string => (parts.length > 0 ? ` -n ${quoteFish(parts.join('; and '))}` : '');
  const describe = (text: string): string => (text ? ` -d ${quoteFish(text)}` : '');
  const lines = spec.subcommands.map((child) => `complete -c ${name}${condition(here)} -f -a ${quoteFish(child.names[0] ?? '')}${describe(child.description)}`);
  const choices = spec.arguments.flatMap((argument) => argument.choices);
  if (choices.length > 0) lines.push(`complete -c ${name}${condition(here)} -f -a ${quoteFish(choices.join(' '))}`);
  for (const option of spec.options) {
    const flags = option.flags.map((flag) => (flag.startsWith('--') ? `-l ${flag.slice(2)}` : `-s ${flag.slice(1)}`)).join(' ');
    // -x: a value is required and comes from the choices; -r: a value is required, any file name.
    const value = option.takesValue ? (option.choices.length > 0 ? ` -x -a ${quoteFish(option.choices.join(' '))}` : ' -r') : '';
    // The root's options stay offered everywhere: commander reads program options after a subcommand too.
    lines.push(`complete -c ${name}${condition(seen)} ${flags}${value}${describe(option.description)}`);
  }
  return lines;
}
