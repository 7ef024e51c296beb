# bash completion for gw. Generated from the commander program by `npm run completions`: do not edit.
# Use: source this file, or install it as /usr/share/bash-completion/completions/gw.

# PATH/WORD -> REPLY: the command path that WORD (a subcommand or alias) leads to.
_gw_subcommand() {
  case "$1/$2" in
    'gw/serve') REPLY='gw serve' ;;
    'gw/teams') REPLY='gw teams' ;;
    'gw/keys') REPLY='gw keys' ;;
    'gw/settings') REPLY='gw settings' ;;
    'gw/providers') REPLY='gw providers' ;;
    'gw/audit') REPLY='gw audit' ;;
    'gw/completion') REPLY='gw completion' ;;
    'gw/help') REPLY='gw help' ;;
    'gw teams/create') REPLY='gw teams create' ;;
    'gw teams/list') REPLY='gw teams list' ;;
    'gw teams/help') REPLY='gw teams help' ;;
    'gw keys/create') REPLY='gw keys create' ;;
    'gw keys/list') REPLY='gw keys list' ;;
    'gw keys/revoke') REPLY='gw keys revoke' ;;
    'gw keys/help') REPLY='gw keys help' ;;
    'gw settings/get') REPLY='gw settings get' ;;
    'gw settings/set') REPLY='gw settings set' ;;
    'gw settings/help') REPLY='gw settings help' ;;
    'gw providers/add') REPLY='gw providers add' ;;
    'gw providers/list') REPLY='gw providers list' ;;
    'gw providers/remove') REPLY='gw providers remove' ;;
    'gw providers/test') REPLY='gw providers test' ;;
    'gw providers/help') REPLY='gw providers help' ;;
    'gw audit/verify') REPLY='gw audit verify' ;;
    'gw audit/help') REPLY='gw audit help' ;;
    *) REPLY='' ;;
  esac
}

# PATH/FLAG: succeeds when FLAG takes a value, so the next word is not a subcommand.
_gw_takes_value() {
  case "$1/$2" in
    'gw serve/--host'|'gw serve/--port'|'gw serve/--home'|'gw serve/--tls-cert'|'gw serve/--tls-key'|'gw serve/--log-level'|'gw teams create/--home'|'gw teams list/--home'|'gw keys create/--team'|'gw keys create/--name'|'gw keys create/--expires'|'gw keys create/--home'|'gw keys list/--team'|'gw keys list/--home'|'gw keys revoke/--home'|'gw settings get/--home'|'gw settings set/--home'|'gw providers add/--kind'|'gw providers add/--base-url'|'gw providers add/--api-key-env'|'gw providers add/--api-key'|'gw providers add/--api-version'|'gw providers add/--preset'|'gw providers add/--home'|'gw providers list/--home'|'gw providers remove/--home'|'gw providers test/--timeout'|'gw providers test/--home'|'gw audit verify/--file'|'gw audit verify/--home') return 0 ;;
  esac
  return 1
}

# PATH/FLAG -> REPLY: the choices for FLAG's value; none: file names (complete -o default).
_gw_option_values() {
  case "$1/$2" in
    'gw providers add/--kind') REPLY='openai anthropic gemini azure openai-compatible gateway' ;;
    'gw providers add/--preset') REPLY='ollama vllm llamacpp groq mistral deepseek openrouter together fireworks xai' ;;
    *) REPLY='' ;;
  esac
}

# PATH -> REPLY: the flags of the command at PATH.
_gw_options() {
  case "$1" in
    'gw') REPLY='-V --version -h --help' ;;
    'gw serve') REPLY='--host --port --home --tls-cert --tls-key --log-level -h --help' ;;
    'gw teams') REPLY='-h --help' ;;
    'gw teams create') REPLY='--home -h --help' ;;
    'gw teams list') REPLY='--json --home -h --help' ;;
    'gw teams help') REPLY='' ;;
    'gw keys') REPLY='-h --help' ;;
    'gw keys create') REPLY='--team --name --expires --home -h --help' ;;
    'gw keys list') REPLY='--team --json --home -h --help' ;;
    'gw keys revoke') REPLY='--home -h --help' ;;
    'gw keys help') REPLY='' ;;
    'gw settings') REPLY='-h --help' ;;
    'gw settings get') REPLY='--json --home -h --help' ;;
    'gw settings set') REPLY='--home -h --help' ;;
    'gw settings help') REPLY='' ;;
    'gw providers') REPLY='-h --help' ;;
    'gw providers add') REPLY='--kind --base-url --api-key-env --api-key --api-version --preset --home -h --help' ;;
    'gw providers list') REPLY='--json --home -h --help' ;;
    'gw providers remove') REPLY='--home -h --help' ;;
    'gw providers test') REPLY='--timeout --home -h --help' ;;
    'gw providers help') REPLY='' ;;
    'gw audit') REPLY='-h --help' ;;
    'gw audit verify') REPLY='--file --json --home -h --help' ;;
    'gw audit help') REPLY='' ;;
    'gw completion') REPLY='-h --help' ;;
    'gw help') REPLY='' ;;
    *) REPLY='' ;;
  esac
}

# PATH/INDEX -> REPLY: subcommands (before any positional) and the choices of positional INDEX.
_gw_words() {
  case "$1/$2" in
    'gw/0') REPLY='serve teams keys settings providers audit completion help' ;;
    'gw teams/0') REPLY='create list help' ;;
    'gw teams help/0') REPLY='create list' ;;
    'gw keys/0') REPLY='create list revoke help' ;;
    'gw keys help/0') REPLY='create list revoke' ;;
    'gw settings/0') REPLY='get set help' ;;
    'gw settings help/0') REPLY='get set' ;;
    'gw providers/0') REPLY='add list remove test help' ;;
    'gw providers help/0') REPLY='add list remove test' ;;
    'gw audit/0') REPLY='verify help' ;;
    'gw audit help/0') REPLY='verify' ;;
    'gw completion/0') REPLY='bash zsh fish' ;;
    'gw help/0') REPLY='serve teams keys settings providers audit completion' ;;
    *) REPLY='' ;;
  esac
}

_gw() {
  local cur="${COMP_WORDS[COMP_CWORD]}" path='gw' word pending='' prefix='' index=0 dashdash=0 i REPLY=''
  for ((i = 1; i < COMP_CWORD; i++)); do
    word="${COMP_WORDS[i]}"
    if [[ -n $pending ]]; then
      # bash splits `--flag=value` at `=` (COMP_WORDBREAKS): the value is the word after it.
      [[ $word == '=' ]] || pending=''
      continue
    fi
    if ((!dashdash)); then
      case "$word" in
        --) dashdash=1; continue ;;
        -*=*) continue ;;
        -*) _gw_takes_value "$path" "$word" && pending="$word"; continue ;;
      esac
    fi
    if ((index == 0)); then
      _gw_subcommand "$path" "$word"
      if [[ -n $REPLY ]]; then path="$REPLY"; continue; fi
    fi
    index=$((index + 1))
  done
  # Completing right after `--flag=`: keep the `=` in the word bash replaces.
  if [[ $cur == '=' && -n $pending ]]; then prefix='='; cur=''; fi
  COMPREPLY=()
  if [[ -n $pending ]]; then
    _gw_option_values "$path" "$pending"
  elif [[ $cur == -* && $dashdash == 0 ]]; then
    _gw_options "$path"
  else
    _gw_words "$path" "$index"
  fi
  [[ -z $REPLY ]] || COMPREPLY=($(compgen -P "$prefix" -W "$REPLY" -- "$cur"))
  return 0
}

complete -o default -F _gw gw
