# bash completion for gw. Generated from the commander program by `npm run completions`: do not edit.
# Use: source this file, or install it as /usr/share/bash-completion/completions/gw.

# PATH/WORD -> REPLY: the command path that WORD (a subcommand or alias) leads to.
_gw_subcommand() {
  case "$1/$2" in
    'gw/serve') REPLY='gw serve' ;;
    'gw/teams') REPLY='gw teams' ;;
    'gw/people') REPLY='gw people' ;;
    'gw/device') REPLY='gw device' ;;
    'gw/tokens') REPLY='gw tokens' ;;
    'gw/login') REPLY='gw login' ;;
    'gw/logout') REPLY='gw logout' ;;
    'gw/whoami') REPLY='gw whoami' ;;
    'gw/keys') REPLY='gw keys' ;;
    'gw/settings') REPLY='gw settings' ;;
    'gw/providers') REPLY='gw providers' ;;
    'gw/routes') REPLY='gw routes' ;;
    'gw/policy') REPLY='gw policy' ;;
    'gw/dlp') REPLY='gw dlp' ;;
    'gw/guardrails') REPLY='gw guardrails' ;;
    'gw/audit') REPLY='gw audit' ;;
    'gw/prices') REPLY='gw prices' ;;
    'gw/budgets') REPLY='gw budgets' ;;
    'gw/claude-settings') REPLY='gw claude-settings' ;;
    'gw/usage') REPLY='gw usage' ;;
    'gw/db') REPLY='gw db' ;;
    'gw/state') REPLY='gw state' ;;
    'gw/admin') REPLY='gw admin' ;;
    'gw/run') REPLY='gw run' ;;
    'gw/token') REPLY='gw token' ;;
    'gw/mcp') REPLY='gw mcp' ;;
    'gw/completion') REPLY='gw completion' ;;
    'gw/help') REPLY='gw help' ;;
    'gw teams/create') REPLY='gw teams create' ;;
    'gw teams/list') REPLY='gw teams list' ;;
    'gw teams/rotate-key') REPLY='gw teams rotate-key' ;;
    'gw teams/help') REPLY='gw teams help' ;;
    'gw people/add') REPLY='gw people add' ;;
    'gw people/list') REPLY='gw people list' ;;
    'gw people/remove') REPLY='gw people remove' ;;
    'gw people/help') REPLY='gw people help' ;;
    'gw device/approve') REPLY='gw device approve' ;;
    'gw device/deny') REPLY='gw device deny' ;;
    'gw device/list') REPLY='gw device list' ;;
    'gw device/help') REPLY='gw device help' ;;
    'gw tokens/list') REPLY='gw tokens list' ;;
    'gw tokens/revoke') REPLY='gw tokens revoke' ;;
    'gw tokens/help') REPLY='gw tokens help' ;;
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
    'gw routes/list') REPLY='gw routes list' ;;
    'gw routes/add') REPLY='gw routes add' ;;
    'gw routes/remove') REPLY='gw routes remove' ;;
    'gw routes/test') REPLY='gw routes test' ;;
    'gw routes/help') REPLY='gw routes help' ;;
    'gw policy/list') REPLY='gw policy list' ;;
    'gw policy/set') REPLY='gw policy set' ;;
    'gw policy/remove') REPLY='gw policy remove' ;;
    'gw policy/test') REPLY='gw policy test' ;;
    'gw policy/help') REPLY='gw policy help' ;;
    'gw dlp/list') REPLY='gw dlp list' ;;
    'gw dlp/set') REPLY='gw dlp set' ;;
    'gw dlp/add') REPLY='gw dlp add' ;;
    'gw dlp/remove') REPLY='gw dlp remove' ;;
    'gw dlp/output') REPLY='gw dlp output' ;;
    'gw dlp/test') REPLY='gw dlp test' ;;
    'gw dlp/help') REPLY='gw dlp help' ;;
    'gw guardrails/add') REPLY='gw guardrails add' ;;
    'gw guardrails/list') REPLY='gw guardrails list' ;;
    'gw guardrails/remove') REPLY='gw guardrails remove' ;;
    'gw guardrails/help') REPLY='gw guardrails help' ;;
    'gw audit/verify') REPLY='gw audit verify' ;;
    'gw audit/export') REPLY='gw audit export' ;;
    'gw audit/chains') REPLY='gw audit chains' ;;
    'gw audit/trust') REPLY='gw audit trust' ;;
    'gw audit/witness-key') REPLY='gw audit witness-key' ;;
    'gw audit/rotate') REPLY='gw audit rotate' ;;
    'gw audit/show') REPLY='gw audit show' ;;
    'gw audit/help') REPLY='gw audit help' ;;
    'gw audit trust/add') REPLY='gw audit trust add' ;;
    'gw audit trust/list') REPLY='gw audit trust list' ;;
    'gw audit trust/remove') REPLY='gw audit trust remove' ;;
    'gw audit trust/help') REPLY='gw audit trust help' ;;
    'gw prices/set') REPLY='gw prices set' ;;
    'gw prices/list') REPLY='gw prices list' ;;
    'gw prices/remove') REPLY='gw prices remove' ;;
    'gw prices/show') REPLY='gw prices show' ;;
    'gw prices/help') REPLY='gw prices help' ;;
    'gw budgets/set') REPLY='gw budgets set' ;;
    'gw budgets/list') REPLY='gw budgets list' ;;
    'gw budgets/remove') REPLY='gw budgets remove' ;;
    'gw budgets/test') REPLY='gw budgets test' ;;
    'gw budgets/help') REPLY='gw budgets help' ;;
    'gw claude-settings/set') REPLY='gw claude-settings set' ;;
    'gw claude-settings/show') REPLY='gw claude-settings show' ;;
    'gw claude-settings/clear') REPLY='gw claude-settings clear' ;;
    'gw claude-settings/help') REPLY='gw claude-settings help' ;;
    'gw db/migrate') REPLY='gw db migrate' ;;
    'gw db/help') REPLY='gw db help' ;;
    'gw state/export') REPLY='gw state export' ;;
    'gw state/import') REPLY='gw state import' ;;
    'gw state/help') REPLY='gw state help' ;;
    'gw admin/tokens') REPLY='gw admin tokens' ;;
    'gw admin/help') REPLY='gw admin help' ;;
    'gw admin tokens/create') REPLY='gw admin tokens create' ;;
    'gw admin tokens/list') REPLY='gw admin tokens list' ;;
    'gw admin tokens/revoke') REPLY='gw admin tokens revoke' ;;
    'gw admin tokens/help') REPLY='gw admin tokens help' ;;
    'gw mcp/add') REPLY='gw mcp add' ;;
    'gw mcp/list') REPLY='gw mcp list' ;;
    'gw mcp/remove') REPLY='gw mcp remove' ;;
    'gw mcp/test') REPLY='gw mcp test' ;;
    'gw mcp/help') REPLY='gw mcp help' ;;
    *) REPLY='' ;;
  esac
}

# PATH/FLAG: succeeds when FLAG takes a value, so the next word is not a subcommand.
_gw_takes_value() {
  case "$1/$2" in
    'gw/--store'|'gw serve/--host'|'gw serve/--port'|'gw serve/--home'|'gw serve/--tls-cert'|'gw serve/--tls-key'|'gw serve/--log-level'|'gw serve/--log-format'|'gw serve/--allow-remote-peer'|'gw serve/--store'|'gw serve/--redis'|'gw teams create/--home'|'gw teams list/--home'|'gw teams rotate-key/--overlap'|'gw teams rotate-key/--home'|'gw people add/--team'|'gw people add/--home'|'gw people add/--hub'|'gw people list/--home'|'gw people remove/--home'|'gw people remove/--hub'|'gw device approve/--person'|'gw device approve/--home'|'gw device approve/--hub'|'gw device deny/--home'|'gw device deny/--hub'|'gw device list/--home'|'gw tokens list/--person'|'gw tokens list/--home'|'gw tokens revoke/--home'|'gw login/--hub'|'gw login/--home'|'gw logout/--home'|'gw whoami/--home'|'gw keys create/--team'|'gw keys create/--name'|'gw keys create/--expires'|'gw keys create/--home'|'gw keys create/--hub'|'gw keys list/--team'|'gw keys list/--home'|'gw keys list/--hub'|'gw keys revoke/--home'|'gw keys revoke/--hub'|'gw settings get/--home'|'gw settings get/--hub'|'gw settings set/--home'|'gw settings set/--hub'|'gw providers add/--kind'|'gw providers add/--base-url'|'gw providers add/--api-key-env'|'gw providers add/--api-key'|'gw providers add/--api-version'|'gw providers add/--takes'|'gw providers add/--preset'|'gw providers add/--home'|'gw providers add/--hub'|'gw providers list/--home'|'gw providers list/--hub'|'gw providers remove/--home'|'gw providers remove/--hub'|'gw providers test/--timeout'|'gw providers test/--home'|'gw providers test/--hub'|'gw routes list/--home'|'gw routes list/--hub'|'gw routes add/--target'|'gw routes add/--retries'|'gw routes add/--home'|'gw routes add/--hub'|'gw routes remove/--home'|'gw routes remove/--hub'|'gw routes test/--session'|'gw routes test/--team'|'gw routes test/--key'|'gw routes test/--home'|'gw routes test/--hub'|'gw policy list/--home'|'gw policy list/--hub'|'gw policy set/--mode'|'gw policy set/--allow-models'|'gw policy set/--deny-models'|'gw policy set/--allow-providers'|'gw policy set/--deny-providers'|'gw policy set/--allow-operations'|'gw policy set/--deny-operations'|'gw policy set/--allow-tools'|'gw policy set/--deny-tools'|'gw policy set/--allow-mcp-servers'|'gw policy set/--deny-mcp-servers'|'gw policy set/--allow-resources'|'gw policy set/--deny-resources'|'gw policy set/--allow-prompts'|'gw policy set/--deny-prompts'|'gw policy set/--max-tokens'|'gw policy set/--rpm'|'gw policy set/--tpm'|'gw policy set/--cache-marker'|'gw policy set/--home'|'gw policy set/--hub'|'gw policy remove/--home'|'gw policy remove/--hub'|'gw policy test/--team'|'gw policy test/--key'|'gw policy test/--model'|'gw policy test/--operation'|'gw policy test/--provider'|'gw policy test/--max-tokens'|'gw policy test/--mcp-server'|'gw policy test/--tool'|'gw policy test/--resource'|'gw policy test/--prompt'|'gw policy test/--home'|'gw policy test/--hub'|'gw dlp list/--scope'|'gw dlp list/--home'|'gw dlp list/--hub'|'gw dlp set/--scope'|'gw dlp set/--home'|'gw dlp set/--hub'|'gw dlp add/--pattern'|'gw dlp add/--action'|'gw dlp add/--scope'|'gw dlp add/--home'|'gw dlp add/--hub'|'gw dlp remove/--scope'|'gw dlp remove/--home'|'gw dlp remove/--hub'|'gw dlp output/--scope'|'gw dlp output/--home'|'gw dlp output/--hub'|'gw dlp test/--file'|'gw dlp test/--team'|'gw dlp test/--key'|'gw dlp test/--home'|'gw dlp test/--hub'|'gw guardrails add/--kind'|'gw guardrails add/--url'|'gw guardrails add/--scope'|'gw guardrails add/--when'|'gw guardrails add/--timeout-ms'|'gw guardrails add/--on-error'|'gw guardrails add/--credential'|'gw guardrails add/--option'|'gw guardrails add/--home'|'gw guardrails add/--hub'|'gw guardrails list/--home'|'gw guardrails list/--hub'|'gw guardrails remove/--home'|'gw guardrails remove/--hub'|'gw audit verify/--file'|'gw audit verify/--home'|'gw audit verify/--store'|'gw audit verify/--key'|'gw audit verify/--trust-file'|'gw audit verify/--ocsf'|'gw audit verify/--witness-key'|'gw audit verify/--hub'|'gw audit verify/--witness'|'gw audit export/--format'|'gw audit export/--since'|'gw audit export/--until'|'gw audit export/--store'|'gw audit export/--chain'|'gw audit export/--out'|'gw audit export/--witness'|'gw audit export/--home'|'gw audit chains/--store'|'gw audit trust add/--home'|'gw audit trust add/--trust-file'|'gw audit trust add/--name'|'gw audit trust list/--home'|'gw audit trust list/--trust-file'|'gw audit trust remove/--home'|'gw audit trust remove/--trust-file'|'gw audit witness-key/--home'|'gw audit rotate/--hub'|'gw audit rotate/--home'|'gw audit rotate/--store'|'gw audit show/--session'|'gw audit show/--file'|'gw audit show/--home'|'gw audit show/--store'|'gw prices set/--input'|'gw prices set/--output'|'gw prices set/--cache-read'|'gw prices set/--cache-write'|'gw prices set/--cache-write-1h'|'gw prices set/--input-audio'|'gw prices set/--output-audio'|'gw prices set/--per-image'|'gw prices set/--per-audio-minute'|'gw prices set/--per-million-characters'|'gw prices set/--home'|'gw prices set/--hub'|'gw prices list/--home'|'gw prices list/--hub'|'gw prices remove/--home'|'gw prices remove/--hub'|'gw prices show/--input-tokens'|'gw prices show/--output-tokens'|'gw prices show/--images'|'gw prices show/--size'|'gw prices show/--quality'|'gw prices show/--audio-seconds'|'gw prices show/--characters'|'gw prices show/--home'|'gw prices show/--hub'|'gw budgets set/--amount'|'gw budgets set/--period'|'gw budgets set/--time-zone'|'gw budgets set/--home'|'gw budgets set/--hub'|'gw budgets list/--home'|'gw budgets list/--hub'|'gw budgets remove/--period'|'gw budgets remove/--home'|'gw budgets remove/--hub'|'gw budgets test/--team'|'gw budgets test/--key'|'gw budgets test/--person'|'gw budgets test/--model'|'gw budgets test/--input-tokens'|'gw budgets test/--max-tokens'|'gw budgets test/--home'|'gw budgets test/--hub'|'gw claude-settings set/--file'|'gw claude-settings set/--json'|'gw claude-settings set/--team'|'gw claude-settings set/--home'|'gw claude-settings set/--hub'|'gw claude-settings show/--team'|'gw claude-settings show/--home'|'gw claude-settings show/--hub'|'gw claude-settings clear/--team'|'gw claude-settings clear/--home'|'gw claude-settings clear/--hub'|'gw usage/--by'|'gw usage/--since'|'gw usage/--until'|'gw usage/--tz'|'gw usage/--person'|'gw usage/--file'|'gw usage/--home'|'gw usage/--store'|'gw db migrate/--store'|'gw state export/--home'|'gw state import/--home'|'gw admin tokens create/--name'|'gw admin tokens create/--role'|'gw admin tokens create/--team'|'gw admin tokens create/--home'|'gw admin tokens create/--hub'|'gw admin tokens list/--home'|'gw admin tokens list/--hub'|'gw admin tokens revoke/--home'|'gw admin tokens revoke/--hub'|'gw run/--home'|'gw token/--home'|'gw mcp add/--url'|'gw mcp add/--transport'|'gw mcp add/--header-env'|'gw mcp add/--header'|'gw mcp add/--command'|'gw mcp add/--env'|'gw mcp add/--home'|'gw mcp add/--hub'|'gw mcp list/--home'|'gw mcp list/--hub'|'gw mcp remove/--home'|'gw mcp remove/--hub'|'gw mcp test/--home'|'gw mcp test/--hub') return 0 ;;
  esac
  return 1
}

# PATH/FLAG -> REPLY: the choices for FLAG's value; none: file names (complete -o default).
_gw_option_values() {
  case "$1/$2" in
    'gw providers add/--kind') REPLY='openai anthropic gemini azure openai-compatible gateway cohere jina voyage mistral bedrock foundry' ;;
    'gw providers add/--preset') REPLY='ollama vllm llamacpp groq mistral deepseek openrouter together fireworks xai' ;;
    *) REPLY='' ;;
  esac
}

# PATH -> REPLY: the flags of the command at PATH.
_gw_options() {
  case "$1" in
    'gw') REPLY='-V --version --store -h --help' ;;
    'gw serve') REPLY='--host --port --home --tls-cert --tls-key --log-level --log-format --standalone --allow-remote-sidecar --allow-remote-peer --store --redis --accept-audit-gap -h --help' ;;
    'gw teams') REPLY='-h --help' ;;
    'gw teams create') REPLY='--home -h --help' ;;
    'gw teams list') REPLY='--json --home -h --help' ;;
    'gw teams rotate-key') REPLY='--overlap --home -h --help' ;;
    'gw teams help') REPLY='' ;;
    'gw people') REPLY='-h --help' ;;
    'gw people add') REPLY='--team --home --hub -h --help' ;;
    'gw people list') REPLY='--json --home -h --help' ;;
    'gw people remove') REPLY='--home --hub -h --help' ;;
    'gw people help') REPLY='' ;;
    'gw device') REPLY='-h --help' ;;
    'gw device approve') REPLY='--person --home --hub -h --help' ;;
    'gw device deny') REPLY='--home --hub -h --help' ;;
    'gw device list') REPLY='--json --home -h --help' ;;
    'gw device help') REPLY='' ;;
    'gw tokens') REPLY='-h --help' ;;
    'gw tokens list') REPLY='--person --json --home -h --help' ;;
    'gw tokens revoke') REPLY='--home -h --help' ;;
    'gw tokens help') REPLY='' ;;
    'gw login') REPLY='--hub --no-browser --admin --home -h --help' ;;
    'gw logout') REPLY='--home -h --help' ;;
    'gw whoami') REPLY='--home -h --help' ;;
    'gw keys') REPLY='-h --help' ;;
    'gw keys create') REPLY='--team --name --expires --home --hub -h --help' ;;
    'gw keys list') REPLY='--team --json --sessions --home --hub -h --help' ;;
    'gw keys revoke') REPLY='--home --hub -h --help' ;;
    'gw keys help') REPLY='' ;;
    'gw settings') REPLY='-h --help' ;;
    'gw settings get') REPLY='--json --home --hub -h --help' ;;
    'gw settings set') REPLY='--home --hub -h --help' ;;
    'gw settings help') REPLY='' ;;
    'gw providers') REPLY='-h --help' ;;
    'gw providers add') REPLY='--kind --base-url --api-key-env --api-key --api-version --takes --preset --home --hub -h --help' ;;
    'gw providers list') REPLY='--json --home --hub -h --help' ;;
    'gw providers remove') REPLY='--home --hub -h --help' ;;
    'gw providers test') REPLY='--timeout --home --hub -h --help' ;;
    'gw providers help') REPLY='' ;;
    'gw routes') REPLY='-h --help' ;;
    'gw routes list') REPLY='--json --home --hub -h --help' ;;
    'gw routes add') REPLY='--target --retries --no-fallback --home --hub -h --help' ;;
    'gw routes remove') REPLY='--home --hub -h --help' ;;
    'gw routes test') REPLY='--session --team --key --home --hub -h --help' ;;
    'gw routes help') REPLY='' ;;
    'gw policy') REPLY='-h --help' ;;
    'gw policy list') REPLY='--json --home --hub -h --help' ;;
    'gw policy set') REPLY='--mode --allow-models --deny-models --allow-providers --deny-providers --allow-operations --deny-operations --allow-tools --deny-tools --allow-mcp-servers --deny-mcp-servers --allow-resources --deny-resources --allow-prompts --deny-prompts --max-tokens --rpm --tpm --cache-marker --home --hub -h --help' ;;
    'gw policy remove') REPLY='--home --hub -h --help' ;;
    'gw policy test') REPLY='--team --key --model --operation --provider --max-tokens --mcp-server --tool --resource --prompt --home --hub -h --help' ;;
    'gw policy help') REPLY='' ;;
    'gw dlp') REPLY='-h --help' ;;
    'gw dlp list') REPLY='--scope --json --home --hub -h --help' ;;
    'gw dlp set') REPLY='--scope --home --hub -h --help' ;;
    'gw dlp add') REPLY='--pattern --action --ignore-case --scope --home --hub -h --help' ;;
    'gw dlp remove') REPLY='--scope --home --hub -h --help' ;;
    'gw dlp output') REPLY='--scope --home --hub -h --help' ;;
    'gw dlp test') REPLY='--file --team --key --home --hub -h --help' ;;
    'gw dlp help') REPLY='' ;;
    'gw guardrails') REPLY='-h --help' ;;
    'gw guardrails add') REPLY='--kind --url --scope --when --timeout-ms --on-error --credential --option --home --hub -h --help' ;;
    'gw guardrails list') REPLY='--json --home --hub -h --help' ;;
    'gw guardrails remove') REPLY='--home --hub -h --help' ;;
    'gw guardrails help') REPLY='' ;;
    'gw audit') REPLY='-h --help' ;;
    'gw audit verify') REPLY='--file --json --home --store --key --trust-file --allow-untrusted --ocsf --window --witness-key --hub --witness -h --help' ;;
    'gw audit export') REPLY='--format --since --until --store --chain --out --witness --home -h --help' ;;
    'gw audit chains') REPLY='--store -h --help' ;;
    'gw audit trust') REPLY='-h --help' ;;
    'gw audit trust add') REPLY='--home --trust-file --name -h --help' ;;
    'gw audit trust list') REPLY='--home --trust-file -h --help' ;;
    'gw audit trust remove') REPLY='--home --trust-file -h --help' ;;
    'gw audit trust help') REPLY='' ;;
    'gw audit witness-key') REPLY='--json --home -h --help' ;;
    'gw audit rotate') REPLY='--hub --home --store --accept-audit-gap --json -h --help' ;;
    'gw audit show') REPLY='--session --json --file --home --store -h --help' ;;
    'gw audit help') REPLY='' ;;
    'gw prices') REPLY='-h --help' ;;
    'gw prices set') REPLY='--input --output --cache-read --cache-write --cache-write-1h --input-audio --output-audio --per-image --per-audio-minute --per-million-characters --home --hub -h --help' ;;
    'gw prices list') REPLY='--json --home --hub -h --help' ;;
    'gw prices remove') REPLY='--home --hub -h --help' ;;
    'gw prices show') REPLY='--input-tokens --output-tokens --images --size --quality --audio-seconds --characters --home --hub -h --help' ;;
    'gw prices help') REPLY='' ;;
    'gw budgets') REPLY='-h --help' ;;
    'gw budgets set') REPLY='--amount --period --time-zone --soft --home --hub -h --help' ;;
    'gw budgets list') REPLY='--json --home --hub -h --help' ;;
    'gw budgets remove') REPLY='--period --home --hub -h --help' ;;
    'gw budgets test') REPLY='--team --key --person --model --input-tokens --max-tokens --home --hub -h --help' ;;
    'gw budgets help') REPLY='' ;;
    'gw claude-settings') REPLY='-h --help' ;;
    'gw claude-settings set') REPLY='--file --json --team --home --hub -h --help' ;;
    'gw claude-settings show') REPLY='--team --home --hub -h --help' ;;
    'gw claude-settings clear') REPLY='--team --home --hub -h --help' ;;
    'gw claude-settings help') REPLY='' ;;
    'gw usage') REPLY='--by --since --until --tz --person --json --csv --cache --file --home --store -h --help' ;;
    'gw db') REPLY='-h --help' ;;
    'gw db migrate') REPLY='--store -h --help' ;;
    'gw db help') REPLY='' ;;
    'gw state') REPLY='-h --help' ;;
    'gw state export') REPLY='--with-secrets --home -h --help' ;;
    'gw state import') REPLY='--home -h --help' ;;
    'gw state help') REPLY='' ;;
    'gw admin') REPLY='-h --help' ;;
    'gw admin tokens') REPLY='-h --help' ;;
    'gw admin tokens create') REPLY='--name --role --team --home --hub -h --help' ;;
    'gw admin tokens list') REPLY='--json --home --hub -h --help' ;;
    'gw admin tokens revoke') REPLY='--home --hub -h --help' ;;
    'gw admin tokens help') REPLY='' ;;
    'gw admin help') REPLY='' ;;
    'gw run') REPLY='--home -h --help' ;;
    'gw token') REPLY='--home -h --help' ;;
    'gw mcp') REPLY='-h --help' ;;
    'gw mcp add') REPLY='--url --transport --header-env --header --command --env --home --hub -h --help' ;;
    'gw mcp list') REPLY='--json --home --hub -h --help' ;;
    'gw mcp remove') REPLY='--home --hub -h --help' ;;
    'gw mcp test') REPLY='--json --home --hub -h --help' ;;
    'gw mcp help') REPLY='' ;;
    'gw completion') REPLY='-h --help' ;;
    'gw help') REPLY='' ;;
    *) REPLY='' ;;
  esac
}

# PATH/INDEX -> REPLY: subcommands (before any positional) and the choices of positional INDEX.
_gw_words() {
  case "$1/$2" in
    'gw/0') REPLY='serve teams people device tokens login logout whoami keys settings providers routes policy dlp guardrails audit prices budgets claude-settings usage db state admin run token mcp completion help' ;;
    'gw teams/0') REPLY='create list rotate-key help' ;;
    'gw teams help/0') REPLY='create list rotate-key' ;;
    'gw people/0') REPLY='add list remove help' ;;
    'gw people help/0') REPLY='add list remove' ;;
    'gw device/0') REPLY='approve deny list help' ;;
    'gw device help/0') REPLY='approve deny list' ;;
    'gw tokens/0') REPLY='list revoke help' ;;
    'gw tokens help/0') REPLY='list revoke' ;;
    'gw keys/0') REPLY='create list revoke help' ;;
    'gw keys help/0') REPLY='create list revoke' ;;
    'gw settings/0') REPLY='get set help' ;;
    'gw settings help/0') REPLY='get set' ;;
    'gw providers/0') REPLY='add list remove test help' ;;
    'gw providers help/0') REPLY='add list remove test' ;;
    'gw routes/0') REPLY='list add remove test help' ;;
    'gw routes help/0') REPLY='list add remove test' ;;
    'gw policy/0') REPLY='list set remove test help' ;;
    'gw policy help/0') REPLY='list set remove test' ;;
    'gw dlp/0') REPLY='list set add remove output test help' ;;
    'gw dlp help/0') REPLY='list set add remove output test' ;;
    'gw guardrails/0') REPLY='add list remove help' ;;
    'gw guardrails help/0') REPLY='add list remove' ;;
    'gw audit/0') REPLY='verify export chains trust witness-key rotate show help' ;;
    'gw audit trust/0') REPLY='add list remove help' ;;
    'gw audit trust help/0') REPLY='add list remove' ;;
    'gw audit help/0') REPLY='verify export chains trust witness-key rotate show' ;;
    'gw prices/0') REPLY='set list remove show help' ;;
    'gw prices help/0') REPLY='set list remove show' ;;
    'gw budgets/0') REPLY='set list remove test help' ;;
    'gw budgets help/0') REPLY='set list remove test' ;;
    'gw claude-settings/0') REPLY='set show clear help' ;;
    'gw claude-settings help/0') REPLY='set show clear' ;;
    'gw db/0') REPLY='migrate help' ;;
    'gw db help/0') REPLY='migrate' ;;
    'gw state/0') REPLY='export import help' ;;
    'gw state help/0') REPLY='export import' ;;
    'gw admin/0') REPLY='tokens help' ;;
    'gw admin tokens/0') REPLY='create list revoke help' ;;
    'gw admin tokens help/0') REPLY='create list revoke' ;;
    'gw admin help/0') REPLY='tokens' ;;
    'gw mcp/0') REPLY='add list remove test help' ;;
    'gw mcp help/0') REPLY='add list remove test' ;;
    'gw completion/0') REPLY='bash zsh fish' ;;
    'gw help/0') REPLY='serve teams people device tokens login logout whoami keys settings providers routes policy dlp guardrails audit prices budgets claude-settings usage db state admin run token mcp completion' ;;
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
