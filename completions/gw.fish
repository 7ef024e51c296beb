# fish completion for gw. Generated from the commander program by `npm run completions`: do not edit.
# Use: copy to ~/.config/fish/completions/gw.fish.

complete -c gw -n '__fish_use_subcommand' -f -a 'serve' -d 'Run the gateway (default http://127.0.0.1:8080)'
complete -c gw -n '__fish_use_subcommand' -f -a 'teams' -d 'Create and list teams (every key belongs to one)'
complete -c gw -n '__fish_use_subcommand' -f -a 'people' -d 'People who may log in to this hub with gw login (each in one team)'
complete -c gw -n '__fish_use_subcommand' -f -a 'device' -d 'Approve or deny device logins (gw login) waiting on this hub'
complete -c gw -n '__fish_use_subcommand' -f -a 'tokens' -d 'List and revoke personal tokens (atu-…) issued by device login'
complete -c gw -n '__fish_use_subcommand' -f -a 'login' -d 'Log in to a gw hub with device login; then gw serve runs as your sidecar'
complete -c gw -n '__fish_use_subcommand' -f -a 'logout' -d 'Revoke the token at the hub and delete it from this computer'
complete -c gw -n '__fish_use_subcommand' -f -a 'whoami' -d 'Show the person, team and hub of this login, and where the token is kept'
complete -c gw -n '__fish_use_subcommand' -f -a 'keys' -d 'Create, list and revoke virtual keys (sk-gw-…)'
complete -c gw -n '__fish_use_subcommand' -f -a 'settings' -d 'Show and change gateway settings'
complete -c gw -n '__fish_use_subcommand' -f -a 'providers' -d 'Add, list, remove and test upstream providers'
complete -c gw -n '__fish_use_subcommand' -f -a 'routes' -d 'Routing rules: a model name → weighted targets with fallbacks, retries, time-outs and session affinity'
complete -c gw -n '__fish_use_subcommand' -f -a 'policy' -d 'Policies per team and key: models, providers, operations, max tokens, rate limits, shadow mode'
complete -c gw -n '__fish_use_subcommand' -f -a 'dlp' -d 'Data-loss prevention rules: built-in secret and PII detectors, custom patterns, actions per team and key'
complete -c gw -n '__fish_use_subcommand' -f -a 'audit' -d 'Inspect the hash-chained audit trail'
complete -c gw -n '__fish_use_subcommand' -f -a 'prices' -d 'Model prices: the bundled dataset, and local overrides for private, self-hosted or negotiated prices'
complete -c gw -n '__fish_use_subcommand' -f -a 'budgets' -d 'Spend budgets per key, team or person: USD per day, week or month; hard (refuse) or soft (warn)'
complete -c gw -n '__fish_use_subcommand' -f -a 'usage' -d 'Tokens and cost from the audit trail, by team, person, key, model, provider or day'
complete -c gw -n '__fish_use_subcommand' -f -a 'db' -d 'The PostgreSQL store\'s schema'
complete -c gw -n '__fish_use_subcommand' -f -a 'state' -d 'Move the state between state.json and PostgreSQL'
complete -c gw -n '__fish_use_subcommand' -f -a 'admin' -d 'Administration of a hub: its admin API and console (/ui)'
complete -c gw -n '__fish_use_subcommand' -f -a 'run' -d 'Run a coding tool (claude, codex, gemini, opencode) through the local gateway, starting one when none answers; the tool\'s own arguments follow'
complete -c gw -n '__fish_use_subcommand' -f -a 'token' -d 'Print a short-lived credential for the local gateway (an hour-long key; any value on a sidecar): usable as Claude Code\'s apiKeyHelper'
complete -c gw -n '__fish_use_subcommand' -f -a 'mcp' -d 'MCP servers behind gw\'s /mcp: tools, prompts and resources under the same keys, policy, DLP and audit'
complete -c gw -n '__fish_use_subcommand' -f -a 'completion' -d 'Print the shell completion script for bash, zsh or fish'
complete -c gw -n '__fish_use_subcommand' -f -a 'help' -d 'display help for command'
complete -c gw -s V -l version -d 'output the version number'
complete -c gw -l store -r -d 'PostgreSQL URL holding the state instead of the home\'s state.json (GW_DATABASE_URL)'
complete -c gw -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from serve' -l host -r -d 'address to listen on (GW_HOST; default 127.0.0.1)'
complete -c gw -n '__fish_seen_subcommand_from serve' -l port -r -d 'port to listen on (GW_PORT; default 8080)'
complete -c gw -n '__fish_seen_subcommand_from serve' -l home -r -d 'state folder (GW_HOME; default the platform config folder)'
complete -c gw -n '__fish_seen_subcommand_from serve' -l tls-cert -r -d 'PEM certificate, to terminate TLS in gw itself'
complete -c gw -n '__fish_seen_subcommand_from serve' -l tls-key -r -d 'PEM private key for --tls-cert'
complete -c gw -n '__fish_seen_subcommand_from serve' -l log-level -r -d 'pino log level (GW_LOG_LEVEL; default info)'
complete -c gw -n '__fish_seen_subcommand_from serve' -l log-format -r -d 'pretty (one readable line per request) or json (GW_LOG_FORMAT; default pretty on a terminal, json otherwise)'
complete -c gw -n '__fish_seen_subcommand_from serve' -l standalone -d 'ignore a stored login (gw login) or GW_TOKEN: serve as a standalone gateway or hub'
complete -c gw -n '__fish_seen_subcommand_from serve' -l allow-remote-sidecar -d 'let a sidecar bind an address other machines can reach (its Host/Origin guard stays on)'
complete -c gw -n '__fish_seen_subcommand_from serve' -l store -r -d 'PostgreSQL holding state, resource ids and the audit trail, shared by several instances (GW_DATABASE_URL)'
complete -c gw -n '__fish_seen_subcommand_from serve' -l redis -r -d 'Redis or Valkey holding rate-limit counters shared by several instances (GW_REDIS_URL)'
complete -c gw -n '__fish_seen_subcommand_from serve' -l accept-audit-gap -d 'start although the audit log does not reach its checkpoint (records removed while stopped), recording an audit.gap'
complete -c gw -n '__fish_seen_subcommand_from serve' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from teams; and not __fish_seen_subcommand_from create list rotate-key help' -f -a 'create' -d 'Create a team'
complete -c gw -n '__fish_seen_subcommand_from teams; and not __fish_seen_subcommand_from create list rotate-key help' -f -a 'list' -d 'List teams'
complete -c gw -n '__fish_seen_subcommand_from teams; and not __fish_seen_subcommand_from create list rotate-key help' -f -a 'rotate-key' -d 'Replace the team\'s live key; the old one stays valid for --overlap, and sidecars re-exchange'
complete -c gw -n '__fish_seen_subcommand_from teams; and not __fish_seen_subcommand_from create list rotate-key help' -f -a 'help' -d 'display help for command'
complete -c gw -n '__fish_seen_subcommand_from teams' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from teams; and __fish_seen_subcommand_from create' -l home -r -d 'gw home folder (default: $GW_HOME or the platform config folder)'
complete -c gw -n '__fish_seen_subcommand_from teams; and __fish_seen_subcommand_from create' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from teams; and __fish_seen_subcommand_from list' -l json -d 'print JSON'
complete -c gw -n '__fish_seen_subcommand_from teams; and __fish_seen_subcommand_from list' -l home -r -d 'gw home folder (default: $GW_HOME or the platform config folder)'
complete -c gw -n '__fish_seen_subcommand_from teams; and __fish_seen_subcommand_from list' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from teams; and __fish_seen_subcommand_from rotate-key' -l overlap -r -d 'how long the old key keeps working: 0s to cut it now, else like 30m or 2h'
complete -c gw -n '__fish_seen_subcommand_from teams; and __fish_seen_subcommand_from rotate-key' -l home -r -d 'gw home folder (default: $GW_HOME or the platform config folder)'
complete -c gw -n '__fish_seen_subcommand_from teams; and __fish_seen_subcommand_from rotate-key' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from teams; and __fish_seen_subcommand_from help' -f -a 'create list rotate-key'

complete -c gw -n '__fish_seen_subcommand_from people; and not __fish_seen_subcommand_from add list remove help' -f -a 'add' -d 'Add a person; their device logins are approved for this email'
complete -c gw -n '__fish_seen_subcommand_from people; and not __fish_seen_subcommand_from add list remove help' -f -a 'list' -d 'List people'
complete -c gw -n '__fish_seen_subcommand_from people; and not __fish_seen_subcommand_from add list remove help' -f -a 'remove' -d 'Remove a person and revoke their tokens (a running hub refuses them within a second)'
complete -c gw -n '__fish_seen_subcommand_from people; and not __fish_seen_subcommand_from add list remove help' -f -a 'help' -d 'display help for command'
complete -c gw -n '__fish_seen_subcommand_from people' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from people; and __fish_seen_subcommand_from add' -l team -r -d 'team whose live key serves their requests'
complete -c gw -n '__fish_seen_subcommand_from people; and __fish_seen_subcommand_from add' -l home -r -d 'gw home folder (default: $GW_HOME or the platform config folder)'
complete -c gw -n '__fish_seen_subcommand_from people; and __fish_seen_subcommand_from add' -l hub -r -d 'a hub URL: do it over its admin API (admin token from GW_ADMIN_TOKEN)'
complete -c gw -n '__fish_seen_subcommand_from people; and __fish_seen_subcommand_from add' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from people; and __fish_seen_subcommand_from list' -l json -d 'print JSON'
complete -c gw -n '__fish_seen_subcommand_from people; and __fish_seen_subcommand_from list' -l home -r -d 'gw home folder (default: $GW_HOME or the platform config folder)'
complete -c gw -n '__fish_seen_subcommand_from people; and __fish_seen_subcommand_from list' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from people; and __fish_seen_subcommand_from remove' -l home -r -d 'gw home folder (default: $GW_HOME or the platform config folder)'
complete -c gw -n '__fish_seen_subcommand_from people; and __fish_seen_subcommand_from remove' -l hub -r -d 'a hub URL: do it over its admin API (admin token from GW_ADMIN_TOKEN)'
complete -c gw -n '__fish_seen_subcommand_from people; and __fish_seen_subcommand_from remove' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from people; and __fish_seen_subcommand_from help' -f -a 'add list remove'

complete -c gw -n '__fish_seen_subcommand_from device; and not __fish_seen_subcommand_from approve deny list help' -f -a 'approve' -d 'Approve a waiting login for a person; their gw login finishes on its next poll'
complete -c gw -n '__fish_seen_subcommand_from device; and not __fish_seen_subcommand_from approve deny list help' -f -a 'deny' -d 'Deny a waiting login'
complete -c gw -n '__fish_seen_subcommand_from device; and not __fish_seen_subcommand_from approve deny list help' -f -a 'list' -d 'List device logins of the last day: who asked, from where, and their state'
complete -c gw -n '__fish_seen_subcommand_from device; and not __fish_seen_subcommand_from approve deny list help' -f -a 'help' -d 'display help for command'
complete -c gw -n '__fish_seen_subcommand_from device' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from device; and __fish_seen_subcommand_from approve' -l person -r -d 'the person the token is issued to (see gw people list)'
complete -c gw -n '__fish_seen_subcommand_from device; and __fish_seen_subcommand_from approve' -l home -r -d 'gw home folder (default: $GW_HOME or the platform config folder)'
complete -c gw -n '__fish_seen_subcommand_from device; and __fish_seen_subcommand_from approve' -l hub -r -d 'a hub URL: do it over its admin API (admin token from GW_ADMIN_TOKEN)'
complete -c gw -n '__fish_seen_subcommand_from device; and __fish_seen_subcommand_from approve' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from device; and __fish_seen_subcommand_from deny' -l home -r -d 'gw home folder (default: $GW_HOME or the platform config folder)'
complete -c gw -n '__fish_seen_subcommand_from device; and __fish_seen_subcommand_from deny' -l hub -r -d 'a hub URL: do it over its admin API (admin token from GW_ADMIN_TOKEN)'
complete -c gw -n '__fish_seen_subcommand_from device; and __fish_seen_subcommand_from deny' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from device; and __fish_seen_subcommand_from list' -l json -d 'print JSON'
complete -c gw -n '__fish_seen_subcommand_from device; and __fish_seen_subcommand_from list' -l home -r -d 'gw home folder (default: $GW_HOME or the platform config folder)'
complete -c gw -n '__fish_seen_subcommand_from device; and __fish_seen_subcommand_from list' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from device; and __fish_seen_subcommand_from help' -f -a 'approve deny list'

complete -c gw -n '__fish_seen_subcommand_from tokens; and not __fish_seen_subcommand_from list revoke help' -f -a 'list' -d 'List tokens (never their secrets)'
complete -c gw -n '__fish_seen_subcommand_from tokens; and not __fish_seen_subcommand_from list revoke help' -f -a 'revoke' -d 'Revoke a token by id (tok_…); the hub and its session credentials refuse it within seconds, and the sidecar answers "run gw login" until a new gw login, which it picks up without a restart'
complete -c gw -n '__fish_seen_subcommand_from tokens; and not __fish_seen_subcommand_from list revoke help' -f -a 'help' -d 'display help for command'
complete -c gw -n '__fish_seen_subcommand_from tokens' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from tokens; and __fish_seen_subcommand_from list' -l person -r -d 'only this person\'s tokens'
complete -c gw -n '__fish_seen_subcommand_from tokens; and __fish_seen_subcommand_from list' -l json -d 'print JSON'
complete -c gw -n '__fish_seen_subcommand_from tokens; and __fish_seen_subcommand_from list' -l home -r -d 'gw home folder (default: $GW_HOME or the platform config folder)'
complete -c gw -n '__fish_seen_subcommand_from tokens; and __fish_seen_subcommand_from list' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from tokens; and __fish_seen_subcommand_from revoke' -l home -r -d 'gw home folder (default: $GW_HOME or the platform config folder)'
complete -c gw -n '__fish_seen_subcommand_from tokens; and __fish_seen_subcommand_from revoke' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from tokens; and __fish_seen_subcommand_from help' -f -a 'list revoke'

complete -c gw -n '__fish_seen_subcommand_from login' -l hub -r -d 'the hub, like https://gw.example.com (default: the last one, or GW_HUB)'
complete -c gw -n '__fish_seen_subcommand_from login' -l no-browser -d 'do not offer to open the browser'
complete -c gw -n '__fish_seen_subcommand_from login' -l admin -d 'keep an admin token (from GW_ADMIN_TOKEN or standard input) for gw … --hub URL instead'
complete -c gw -n '__fish_seen_subcommand_from login' -l home -r -d 'gw home folder (default: $GW_HOME or the platform config folder)'
complete -c gw -n '__fish_seen_subcommand_from login' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from logout' -l home -r -d 'gw home folder (default: $GW_HOME or the platform config folder)'
complete -c gw -n '__fish_seen_subcommand_from logout' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from whoami' -l home -r -d 'gw home folder (default: $GW_HOME or the platform config folder)'
complete -c gw -n '__fish_seen_subcommand_from whoami' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from keys; and not __fish_seen_subcommand_from create list revoke help' -f -a 'create' -d 'Create a key; it is printed once and stored only as a hash'
complete -c gw -n '__fish_seen_subcommand_from keys; and not __fish_seen_subcommand_from create list revoke help' -f -a 'list' -d 'List keys (never their secrets)'
complete -c gw -n '__fish_seen_subcommand_from keys; and not __fish_seen_subcommand_from create list revoke help' -f -a 'revoke' -d 'Revoke a key by its id (vk_…); a running gateway refuses it within a second'
complete -c gw -n '__fish_seen_subcommand_from keys; and not __fish_seen_subcommand_from create list revoke help' -f -a 'help' -d 'display help for command'
complete -c gw -n '__fish_seen_subcommand_from keys' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from keys; and __fish_seen_subcommand_from create' -l team -r -d 'team the key belongs to'
complete -c gw -n '__fish_seen_subcommand_from keys; and __fish_seen_subcommand_from create' -l name -r -d 'a label to recognise the key by'
complete -c gw -n '__fish_seen_subcommand_from keys; and __fish_seen_subcommand_from create' -l expires -r -d 'lifetime such as 30d, 12h, 90m, 2w or 45s (default: never)'
complete -c gw -n '__fish_seen_subcommand_from keys; and __fish_seen_subcommand_from create' -l home -r -d 'gw home folder (default: $GW_HOME or the platform config folder)'
complete -c gw -n '__fish_seen_subcommand_from keys; and __fish_seen_subcommand_from create' -l hub -r -d 'a hub URL: do it over its admin API (admin token from GW_ADMIN_TOKEN)'
complete -c gw -n '__fish_seen_subcommand_from keys; and __fish_seen_subcommand_from create' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from keys; and __fish_seen_subcommand_from list' -l team -r -d 'only this team\'s keys'
complete -c gw -n '__fish_seen_subcommand_from keys; and __fish_seen_subcommand_from list' -l json -d 'print JSON'
complete -c gw -n '__fish_seen_subcommand_from keys; and __fish_seen_subcommand_from list' -l home -r -d 'gw home folder (default: $GW_HOME or the platform config folder)'
complete -c gw -n '__fish_seen_subcommand_from keys; and __fish_seen_subcommand_from list' -l hub -r -d 'a hub URL: do it over its admin API (admin token from GW_ADMIN_TOKEN)'
complete -c gw -n '__fish_seen_subcommand_from keys; and __fish_seen_subcommand_from list' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from keys; and __fish_seen_subcommand_from revoke' -l home -r -d 'gw home folder (default: $GW_HOME or the platform config folder)'
complete -c gw -n '__fish_seen_subcommand_from keys; and __fish_seen_subcommand_from revoke' -l hub -r -d 'a hub URL: do it over its admin API (admin token from GW_ADMIN_TOKEN)'
complete -c gw -n '__fish_seen_subcommand_from keys; and __fish_seen_subcommand_from revoke' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from keys; and __fish_seen_subcommand_from help' -f -a 'create list revoke'

complete -c gw -n '__fish_seen_subcommand_from settings; and not __fish_seen_subcommand_from get set help' -f -a 'get' -d 'Show one setting, or all of them'
complete -c gw -n '__fish_seen_subcommand_from settings; and not __fish_seen_subcommand_from get set help' -f -a 'set' -d 'Change a setting; a running gateway picks it up within a second (trusted_proxies, audit_fsync and refused_burst_window_seconds at its next start)'
complete -c gw -n '__fish_seen_subcommand_from settings; and not __fish_seen_subcommand_from get set help' -f -a 'help' -d 'display help for command'
complete -c gw -n '__fish_seen_subcommand_from settings' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from settings; and __fish_seen_subcommand_from get' -l json -d 'print JSON'
complete -c gw -n '__fish_seen_subcommand_from settings; and __fish_seen_subcommand_from get' -l home -r -d 'gw home folder (default: $GW_HOME or the platform config folder)'
complete -c gw -n '__fish_seen_subcommand_from settings; and __fish_seen_subcommand_from get' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from settings; and __fish_seen_subcommand_from set' -l home -r -d 'gw home folder (default: $GW_HOME or the platform config folder)'
complete -c gw -n '__fish_seen_subcommand_from settings; and __fish_seen_subcommand_from set' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from settings; and __fish_seen_subcommand_from help' -f -a 'get set'

complete -c gw -n '__fish_seen_subcommand_from providers; and not __fish_seen_subcommand_from add list remove test help' -f -a 'add' -d 'Add a provider to state.json (it wins over the environment\'s provider of the same name)'
complete -c gw -n '__fish_seen_subcommand_from providers; and not __fish_seen_subcommand_from add list remove test help' -f -a 'list' -d 'List providers from state.json, the environment and the built-in mock (never their keys)'
complete -c gw -n '__fish_seen_subcommand_from providers; and not __fish_seen_subcommand_from add list remove test help' -f -a 'remove' -d 'Remove a provider from state.json'
complete -c gw -n '__fish_seen_subcommand_from providers; and not __fish_seen_subcommand_from add list remove test help' -f -a 'test' -d 'Send one small real request (the model list) and print status and latency'
complete -c gw -n '__fish_seen_subcommand_from providers; and not __fish_seen_subcommand_from add list remove test help' -f -a 'help' -d 'display help for command'
complete -c gw -n '__fish_seen_subcommand_from providers' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from providers; and __fish_seen_subcommand_from add' -l kind -x -a 'openai anthropic gemini azure openai-compatible gateway cohere jina voyage mistral bedrock' -d 'provider kind (default openai-compatible with --preset)'
complete -c gw -n '__fish_seen_subcommand_from providers; and __fish_seen_subcommand_from add' -l base-url -r -d 'API base URL as the provider\'s SDK takes it (default: the kind\'s or preset\'s)'
complete -c gw -n '__fish_seen_subcommand_from providers; and __fish_seen_subcommand_from add' -l api-key-env -r -d 'read the key from this environment variable of gw serve (stored as env:VARIABLE)'
complete -c gw -n '__fish_seen_subcommand_from providers; and __fish_seen_subcommand_from add' -l api-key -r -d 'store the key itself in state.json (0600); prefer --api-key-env'
complete -c gw -n '__fish_seen_subcommand_from providers; and __fish_seen_subcommand_from add' -l api-version -r -d 'Azure OpenAI api-version'
complete -c gw -n '__fish_seen_subcommand_from providers; and __fish_seen_subcommand_from add' -l preset -x -a 'ollama vllm llamacpp groq mistral deepseek openrouter together fireworks xai' -d 'OpenAI-compatible preset (its base URL is the default)'
complete -c gw -n '__fish_seen_subcommand_from providers; and __fish_seen_subcommand_from add' -l home -r -d 'gw home folder (default: $GW_HOME or the platform config folder)'
complete -c gw -n '__fish_seen_subcommand_from providers; and __fish_seen_subcommand_from add' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from providers; and __fish_seen_subcommand_from list' -l json -d 'print JSON'
complete -c gw -n '__fish_seen_subcommand_from providers; and __fish_seen_subcommand_from list' -l home -r -d 'gw home folder (default: $GW_HOME or the platform config folder)'
complete -c gw -n '__fish_seen_subcommand_from providers; and __fish_seen_subcommand_from list' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from providers; and __fish_seen_subcommand_from remove' -l home -r -d 'gw home folder (default: $GW_HOME or the platform config folder)'
complete -c gw -n '__fish_seen_subcommand_from providers; and __fish_seen_subcommand_from remove' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from providers; and __fish_seen_subcommand_from test' -l timeout -r -d 'give up after this long'
complete -c gw -n '__fish_seen_subcommand_from providers; and __fish_seen_subcommand_from test' -l home -r -d 'gw home folder (default: $GW_HOME or the platform config folder)'
complete -c gw -n '__fish_seen_subcommand_from providers; and __fish_seen_subcommand_from test' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from providers; and __fish_seen_subcommand_from help' -f -a 'add list remove test'

complete -c gw -n '__fish_seen_subcommand_from routes; and not __fish_seen_subcommand_from list add remove test help' -f -a 'list' -d 'List routing rules'
complete -c gw -n '__fish_seen_subcommand_from routes; and not __fish_seen_subcommand_from list add remove test help' -f -a 'add' -d 'Add or replace a routing rule'
complete -c gw -n '__fish_seen_subcommand_from routes; and not __fish_seen_subcommand_from list add remove test help' -f -a 'remove' -d 'Remove a routing rule'
complete -c gw -n '__fish_seen_subcommand_from routes; and not __fish_seen_subcommand_from list add remove test help' -f -a 'test' -d 'Which rule a sample request hits, the order its targets would be tried in, and why'
complete -c gw -n '__fish_seen_subcommand_from routes; and not __fish_seen_subcommand_from list add remove test help' -f -a 'help' -d 'display help for command'
complete -c gw -n '__fish_seen_subcommand_from routes' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from routes; and __fish_seen_subcommand_from list' -l json -d 'print JSON'
complete -c gw -n '__fish_seen_subcommand_from routes; and __fish_seen_subcommand_from list' -l home -r -d 'gw home folder (default: $GW_HOME or the platform config folder)'
complete -c gw -n '__fish_seen_subcommand_from routes; and __fish_seen_subcommand_from list' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from routes; and __fish_seen_subcommand_from add' -l target -r -d 'provider/model[,weight=N][,key=env:NAME][,timeout=MS] (repeat for each target)'
complete -c gw -n '__fish_seen_subcommand_from routes; and __fish_seen_subcommand_from add' -l retries -r -d 'extra tries of a target before falling back (0–5)'
complete -c gw -n '__fish_seen_subcommand_from routes; and __fish_seen_subcommand_from add' -l no-fallback -d 'only the first pick, no fallback to other targets'
complete -c gw -n '__fish_seen_subcommand_from routes; and __fish_seen_subcommand_from add' -l home -r -d 'gw home folder (default: $GW_HOME or the platform config folder)'
complete -c gw -n '__fish_seen_subcommand_from routes; and __fish_seen_subcommand_from add' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from routes; and __fish_seen_subcommand_from remove' -l home -r -d 'gw home folder (default: $GW_HOME or the platform config folder)'
complete -c gw -n '__fish_seen_subcommand_from routes; and __fish_seen_subcommand_from remove' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from routes; and __fish_seen_subcommand_from test' -l session -r -d 'a session id (x-claude-code-session-id…): the pick sticks to it'
complete -c gw -n '__fish_seen_subcommand_from routes; and __fish_seen_subcommand_from test' -l team -r -d 'as this team (its provider policies apply)'
complete -c gw -n '__fish_seen_subcommand_from routes; and __fish_seen_subcommand_from test' -l key -r -d 'as this key (vk_…)'
complete -c gw -n '__fish_seen_subcommand_from routes; and __fish_seen_subcommand_from test' -l home -r -d 'gw home folder (default: $GW_HOME or the platform config folder)'
complete -c gw -n '__fish_seen_subcommand_from routes; and __fish_seen_subcommand_from test' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from routes; and __fish_seen_subcommand_from help' -f -a 'list add remove test'

complete -c gw -n '__fish_seen_subcommand_from policy; and not __fish_seen_subcommand_from list set remove test help' -f -a 'list' -d 'List policies'
complete -c gw -n '__fish_seen_subcommand_from policy; and not __fish_seen_subcommand_from list set remove test help' -f -a 'set' -d 'Create or change the policy of a scope (*, team:NAME or key:vk_…); unnamed fields stay as they are'
complete -c gw -n '__fish_seen_subcommand_from policy; and not __fish_seen_subcommand_from list set remove test help' -f -a 'remove' -d 'Remove the policy of a scope'
complete -c gw -n '__fish_seen_subcommand_from policy; and not __fish_seen_subcommand_from list set remove test help' -f -a 'test' -d 'Which policy refuses a sample request, and why'
complete -c gw -n '__fish_seen_subcommand_from policy; and not __fish_seen_subcommand_from list set remove test help' -f -a 'help' -d 'display help for command'
complete -c gw -n '__fish_seen_subcommand_from policy' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from policy; and __fish_seen_subcommand_from list' -l json -d 'print JSON'
complete -c gw -n '__fish_seen_subcommand_from policy; and __fish_seen_subcommand_from list' -l home -r -d 'gw home folder (default: $GW_HOME or the platform config folder)'
complete -c gw -n '__fish_seen_subcommand_from policy; and __fish_seen_subcommand_from list' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from policy; and __fish_seen_subcommand_from set' -l mode -r -d 'enforce (refuse) or shadow (record only)'
complete -c gw -n '__fish_seen_subcommand_from policy; and __fish_seen_subcommand_from set' -l allow-models -r -d 'model globs allowed (comma-separated; e.g. "openai/*,claude-*"); "none" clears'
complete -c gw -n '__fish_seen_subcommand_from policy; and __fish_seen_subcommand_from set' -l deny-models -r -d 'model globs refused; "none" clears'
complete -c gw -n '__fish_seen_subcommand_from policy; and __fish_seen_subcommand_from set' -l allow-providers -r -d 'providers allowed; "none" clears'
complete -c gw -n '__fish_seen_subcommand_from policy; and __fish_seen_subcommand_from set' -l deny-providers -r -d 'providers refused; "none" clears'
complete -c gw -n '__fish_seen_subcommand_from policy; and __fish_seen_subcommand_from set' -l allow-operations -r -d 'operations allowed (chat.completions, messages, embeddings, genai.generateContent…); "none" clears'
complete -c gw -n '__fish_seen_subcommand_from policy; and __fish_seen_subcommand_from set' -l deny-operations -r -d 'operations refused; "none" clears'
complete -c gw -n '__fish_seen_subcommand_from policy; and __fish_seen_subcommand_from set' -l allow-tools -r -d 'MCP tool globs allowed, over namespaced names (e.g. "github__get_*,docs__*"); "none" clears'
complete -c gw -n '__fish_seen_subcommand_from policy; and __fish_seen_subcommand_from set' -l deny-tools -r -d 'MCP tool globs refused (hidden from tools/list too); "none" clears'
complete -c gw -n '__fish_seen_subcommand_from policy; and __fish_seen_subcommand_from set' -l allow-mcp-servers -r -d 'MCP servers allowed (globs); "none" clears'
complete -c gw -n '__fish_seen_subcommand_from policy; and __fish_seen_subcommand_from set' -l deny-mcp-servers -r -d 'MCP servers refused (globs); "none" clears'
complete -c gw -n '__fish_seen_subcommand_from policy; and __fish_seen_subcommand_from set' -l max-tokens -r -d 'largest max_tokens a request may ask for; 0 clears'
complete -c gw -n '__fish_seen_subcommand_from policy; and __fish_seen_subcommand_from set' -l rpm -r -d 'requests per minute (sliding window, shared by the scope); 0 clears'
complete -c gw -n '__fish_seen_subcommand_from policy; and __fish_seen_subcommand_from set' -l tpm -r -d 'tokens per minute (estimated, corrected by usage); 0 clears'
complete -c gw -n '__fish_seen_subcommand_from policy; and __fish_seen_subcommand_from set' -l home -r -d 'gw home folder (default: $GW_HOME or the platform config folder)'
complete -c gw -n '__fish_seen_subcommand_from policy; and __fish_seen_subcommand_from set' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from policy; and __fish_seen_subcommand_from remove' -l home -r -d 'gw home folder (default: $GW_HOME or the platform config folder)'
complete -c gw -n '__fish_seen_subcommand_from policy; and __fish_seen_subcommand_from remove' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from policy; and __fish_seen_subcommand_from test' -l team -r -d 'the caller\'s team'
complete -c gw -n '__fish_seen_subcommand_from policy; and __fish_seen_subcommand_from test' -l key -r -d 'the caller\'s key id (vk_…)'
complete -c gw -n '__fish_seen_subcommand_from policy; and __fish_seen_subcommand_from test' -l model -r -d 'the model asked for'
complete -c gw -n '__fish_seen_subcommand_from policy; and __fish_seen_subcommand_from test' -l operation -r -d 'operation'
complete -c gw -n '__fish_seen_subcommand_from policy; and __fish_seen_subcommand_from test' -l provider -r -d 'the provider routing would pick'
complete -c gw -n '__fish_seen_subcommand_from policy; and __fish_seen_subcommand_from test' -l max-tokens -r -d 'max tokens asked for'
complete -c gw -n '__fish_seen_subcommand_from policy; and __fish_seen_subcommand_from test' -l home -r -d 'gw home folder (default: $GW_HOME or the platform config folder)'
complete -c gw -n '__fish_seen_subcommand_from policy; and __fish_seen_subcommand_from test' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from policy; and __fish_seen_subcommand_from help' -f -a 'list set remove test'

complete -c gw -n '__fish_seen_subcommand_from dlp; and not __fish_seen_subcommand_from list set add remove output test help' -f -a 'list' -d 'Rules and their actions in a scope (with * and the team under a key)'
complete -c gw -n '__fish_seen_subcommand_from dlp; and not __fish_seen_subcommand_from list set add remove output test help' -f -a 'set' -d 'Set a rule\'s action in a scope: block, redact, log or off'
complete -c gw -n '__fish_seen_subcommand_from dlp; and not __fish_seen_subcommand_from list set add remove output test help' -f -a 'add' -d 'Add a custom rule (RE2 syntax: linear time, no backreferences or lookarounds)'
complete -c gw -n '__fish_seen_subcommand_from dlp; and not __fish_seen_subcommand_from list set add remove output test help' -f -a 'remove' -d 'Remove a custom rule, or a rule\'s action override, from a scope'
complete -c gw -n '__fish_seen_subcommand_from dlp; and not __fish_seen_subcommand_from list set add remove output test help' -f -a 'output' -d 'Scan responses too (streams end with an error event on a block): on or off'
complete -c gw -n '__fish_seen_subcommand_from dlp; and not __fish_seen_subcommand_from list set add remove output test help' -f -a 'test' -d 'Which rules fire on a sample (text, or a JSON request body with --file) and what they would do; matches are not printed'
complete -c gw -n '__fish_seen_subcommand_from dlp; and not __fish_seen_subcommand_from list set add remove output test help' -f -a 'help' -d 'display help for command'
complete -c gw -n '__fish_seen_subcommand_from dlp' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from dlp; and __fish_seen_subcommand_from list' -l scope -r -d '*, team:NAME or key:vk_… (default *)'
complete -c gw -n '__fish_seen_subcommand_from dlp; and __fish_seen_subcommand_from list' -l json -d 'print JSON'
complete -c gw -n '__fish_seen_subcommand_from dlp; and __fish_seen_subcommand_from list' -l home -r -d 'gw home folder (default: $GW_HOME or the platform config folder)'
complete -c gw -n '__fish_seen_subcommand_from dlp; and __fish_seen_subcommand_from list' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from dlp; and __fish_seen_subcommand_from set' -l scope -r -d '*, team:NAME or key:vk_… (default *)'
complete -c gw -n '__fish_seen_subcommand_from dlp; and __fish_seen_subcommand_from set' -l home -r -d 'gw home folder (default: $GW_HOME or the platform config folder)'
complete -c gw -n '__fish_seen_subcommand_from dlp; and __fish_seen_subcommand_from set' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from dlp; and __fish_seen_subcommand_from add' -l pattern -r -d 'the pattern'
complete -c gw -n '__fish_seen_subcommand_from dlp; and __fish_seen_subcommand_from add' -l action -r -d 'block, redact or log'
complete -c gw -n '__fish_seen_subcommand_from dlp; and __fish_seen_subcommand_from add' -l ignore-case -d 'match case-insensitively'
complete -c gw -n '__fish_seen_subcommand_from dlp; and __fish_seen_subcommand_from add' -l scope -r -d '*, team:NAME or key:vk_… (default *)'
complete -c gw -n '__fish_seen_subcommand_from dlp; and __fish_seen_subcommand_from add' -l home -r -d 'gw home folder (default: $GW_HOME or the platform config folder)'
complete -c gw -n '__fish_seen_subcommand_from dlp; and __fish_seen_subcommand_from add' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from dlp; and __fish_seen_subcommand_from remove' -l scope -r -d '*, team:NAME or key:vk_… (default *)'
complete -c gw -n '__fish_seen_subcommand_from dlp; and __fish_seen_subcommand_from remove' -l home -r -d 'gw home folder (default: $GW_HOME or the platform config folder)'
complete -c gw -n '__fish_seen_subcommand_from dlp; and __fish_seen_subcommand_from remove' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from dlp; and __fish_seen_subcommand_from output' -l scope -r -d '*, team:NAME or key:vk_… (default *)'
complete -c gw -n '__fish_seen_subcommand_from dlp; and __fish_seen_subcommand_from output' -l home -r -d 'gw home folder (default: $GW_HOME or the platform config folder)'
complete -c gw -n '__fish_seen_subcommand_from dlp; and __fish_seen_subcommand_from output' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from dlp; and __fish_seen_subcommand_from test' -l file -r -d 'a JSON request body or a text file'
complete -c gw -n '__fish_seen_subcommand_from dlp; and __fish_seen_subcommand_from test' -l team -r -d 'as this team'
complete -c gw -n '__fish_seen_subcommand_from dlp; and __fish_seen_subcommand_from test' -l key -r -d 'as this key (vk_…)'
complete -c gw -n '__fish_seen_subcommand_from dlp; and __fish_seen_subcommand_from test' -l home -r -d 'gw home folder (default: $GW_HOME or the platform config folder)'
complete -c gw -n '__fish_seen_subcommand_from dlp; and __fish_seen_subcommand_from test' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from dlp; and __fish_seen_subcommand_from help' -f -a 'list set add remove output test'

complete -c gw -n '__fish_seen_subcommand_from audit; and not __fish_seen_subcommand_from verify export chains help' -f -a 'verify' -d 'Check the audit trail for edits, inserts, deletes, reorders and a cut tail'
complete -c gw -n '__fish_seen_subcommand_from audit; and not __fish_seen_subcommand_from verify export chains help' -f -a 'export' -d 'Write one chain of the PostgreSQL trail as JSON Lines (verify it with gw audit verify --file)'
complete -c gw -n '__fish_seen_subcommand_from audit; and not __fish_seen_subcommand_from verify export chains help' -f -a 'chains' -d 'List the chains of the PostgreSQL trail: one per instance boot'
complete -c gw -n '__fish_seen_subcommand_from audit; and not __fish_seen_subcommand_from verify export chains help' -f -a 'help' -d 'display help for command'
complete -c gw -n '__fish_seen_subcommand_from audit' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from audit; and __fish_seen_subcommand_from verify' -l file -r -d 'the trail to verify (default: <home>/audit/audit.jsonl)'
complete -c gw -n '__fish_seen_subcommand_from audit; and __fish_seen_subcommand_from verify' -l json -d 'print one JSON object'
complete -c gw -n '__fish_seen_subcommand_from audit; and __fish_seen_subcommand_from verify' -l home -r -d 'gw home folder (default: $GW_HOME or the platform config folder)'
complete -c gw -n '__fish_seen_subcommand_from audit; and __fish_seen_subcommand_from verify' -l store -r -d 'verify every chain of the PostgreSQL trail instead (GW_DATABASE_URL)'
complete -c gw -n '__fish_seen_subcommand_from audit; and __fish_seen_subcommand_from verify' -l key -r -d 'with --store: audit.pub files of instances (from their homes) whose chains must be signed by them'
complete -c gw -n '__fish_seen_subcommand_from audit; and __fish_seen_subcommand_from verify' -l witness -r -d 'also compare the trail with the checkpoints a witness kept (a gw hub, with this home\'s login, or a witness file)'
complete -c gw -n '__fish_seen_subcommand_from audit; and __fish_seen_subcommand_from verify' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from audit; and __fish_seen_subcommand_from export' -l store -r -d 'the PostgreSQL store (GW_DATABASE_URL)'
complete -c gw -n '__fish_seen_subcommand_from audit; and __fish_seen_subcommand_from export' -l chain -r -d 'the chain to export (gw audit chains lists them); default: the newest'
complete -c gw -n '__fish_seen_subcommand_from audit; and __fish_seen_subcommand_from export' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from audit; and __fish_seen_subcommand_from chains' -l store -r -d 'the PostgreSQL store (GW_DATABASE_URL)'
complete -c gw -n '__fish_seen_subcommand_from audit; and __fish_seen_subcommand_from chains' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from audit; and __fish_seen_subcommand_from help' -f -a 'verify export chains'

complete -c gw -n '__fish_seen_subcommand_from prices; and not __fish_seen_subcommand_from set list remove show help' -f -a 'set' -d 'Set a local price for provider/model (USD per million tokens); it wins over the dataset'
complete -c gw -n '__fish_seen_subcommand_from prices; and not __fish_seen_subcommand_from set list remove show help' -f -a 'list' -d 'List local prices'
complete -c gw -n '__fish_seen_subcommand_from prices; and not __fish_seen_subcommand_from set list remove show help' -f -a 'remove' -d 'Remove a local price (the dataset prices the model again)'
complete -c gw -n '__fish_seen_subcommand_from prices; and not __fish_seen_subcommand_from set list remove show help' -f -a 'show' -d 'What a call to provider/model costs, and where the price comes from'
complete -c gw -n '__fish_seen_subcommand_from prices; and not __fish_seen_subcommand_from set list remove show help' -f -a 'help' -d 'display help for command'
complete -c gw -n '__fish_seen_subcommand_from prices' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from prices; and __fish_seen_subcommand_from set' -l input -r -d 'USD per million input tokens (uncached)'
complete -c gw -n '__fish_seen_subcommand_from prices; and __fish_seen_subcommand_from set' -l output -r -d 'USD per million output tokens (reasoning included)'
complete -c gw -n '__fish_seen_subcommand_from prices; and __fish_seen_subcommand_from set' -l cache-read -r -d 'USD per million cached input read'
complete -c gw -n '__fish_seen_subcommand_from prices; and __fish_seen_subcommand_from set' -l cache-write -r -d 'USD per million cache writes (5-minute lifetime)'
complete -c gw -n '__fish_seen_subcommand_from prices; and __fish_seen_subcommand_from set' -l cache-write-1h -r -d 'USD per million cache writes with a 1-hour lifetime'
complete -c gw -n '__fish_seen_subcommand_from prices; and __fish_seen_subcommand_from set' -l input-audio -r -d 'USD per million audio input tokens'
complete -c gw -n '__fish_seen_subcommand_from prices; and __fish_seen_subcommand_from set' -l output-audio -r -d 'USD per million audio output tokens'
complete -c gw -n '__fish_seen_subcommand_from prices; and __fish_seen_subcommand_from set' -l home -r -d 'gw home folder (default: $GW_HOME or the platform config folder)'
complete -c gw -n '__fish_seen_subcommand_from prices; and __fish_seen_subcommand_from set' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from prices; and __fish_seen_subcommand_from list' -l json -d 'print JSON'
complete -c gw -n '__fish_seen_subcommand_from prices; and __fish_seen_subcommand_from list' -l home -r -d 'gw home folder (default: $GW_HOME or the platform config folder)'
complete -c gw -n '__fish_seen_subcommand_from prices; and __fish_seen_subcommand_from list' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from prices; and __fish_seen_subcommand_from remove' -l home -r -d 'gw home folder (default: $GW_HOME or the platform config folder)'
complete -c gw -n '__fish_seen_subcommand_from prices; and __fish_seen_subcommand_from remove' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from prices; and __fish_seen_subcommand_from show' -l input-tokens -r -d 'input tokens'
complete -c gw -n '__fish_seen_subcommand_from prices; and __fish_seen_subcommand_from show' -l output-tokens -r -d 'output tokens'
complete -c gw -n '__fish_seen_subcommand_from prices; and __fish_seen_subcommand_from show' -l home -r -d 'gw home folder (default: $GW_HOME or the platform config folder)'
complete -c gw -n '__fish_seen_subcommand_from prices; and __fish_seen_subcommand_from show' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from prices; and __fish_seen_subcommand_from help' -f -a 'set list remove show'

complete -c gw -n '__fish_seen_subcommand_from budgets; and not __fish_seen_subcommand_from set list remove test help' -f -a 'set' -d 'Set (or replace) the budget of a scope for a period'
complete -c gw -n '__fish_seen_subcommand_from budgets; and not __fish_seen_subcommand_from set list remove test help' -f -a 'list' -d 'List budgets'
complete -c gw -n '__fish_seen_subcommand_from budgets; and not __fish_seen_subcommand_from set list remove test help' -f -a 'remove' -d 'Remove a scope\'s budgets (one period with --period)'
complete -c gw -n '__fish_seen_subcommand_from budgets; and not __fish_seen_subcommand_from set list remove test help' -f -a 'test' -d 'What each budget has spent this period (from the trail), and what a sample call would get'
complete -c gw -n '__fish_seen_subcommand_from budgets; and not __fish_seen_subcommand_from set list remove test help' -f -a 'help' -d 'display help for command'
complete -c gw -n '__fish_seen_subcommand_from budgets' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from budgets; and __fish_seen_subcommand_from set' -l amount -r -d 'USD per period'
complete -c gw -n '__fish_seen_subcommand_from budgets; and __fish_seen_subcommand_from set' -l period -r -d 'day, week (from Monday) or month'
complete -c gw -n '__fish_seen_subcommand_from budgets; and __fish_seen_subcommand_from set' -l time-zone -r -d 'IANA time zone the period follows (default UTC)'
complete -c gw -n '__fish_seen_subcommand_from budgets; and __fish_seen_subcommand_from set' -l soft -d 'warn (header and audit) instead of refusing'
complete -c gw -n '__fish_seen_subcommand_from budgets; and __fish_seen_subcommand_from set' -l home -r -d 'gw home folder (default: $GW_HOME or the platform config folder)'
complete -c gw -n '__fish_seen_subcommand_from budgets; and __fish_seen_subcommand_from set' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from budgets; and __fish_seen_subcommand_from list' -l json -d 'print JSON'
complete -c gw -n '__fish_seen_subcommand_from budgets; and __fish_seen_subcommand_from list' -l home -r -d 'gw home folder (default: $GW_HOME or the platform config folder)'
complete -c gw -n '__fish_seen_subcommand_from budgets; and __fish_seen_subcommand_from list' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from budgets; and __fish_seen_subcommand_from remove' -l period -r -d 'only this period'
complete -c gw -n '__fish_seen_subcommand_from budgets; and __fish_seen_subcommand_from remove' -l home -r -d 'gw home folder (default: $GW_HOME or the platform config folder)'
complete -c gw -n '__fish_seen_subcommand_from budgets; and __fish_seen_subcommand_from remove' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from budgets; and __fish_seen_subcommand_from test' -l team -r -d 'as this team'
complete -c gw -n '__fish_seen_subcommand_from budgets; and __fish_seen_subcommand_from test' -l key -r -d 'as this key (vk_…)'
complete -c gw -n '__fish_seen_subcommand_from budgets; and __fish_seen_subcommand_from test' -l person -r -d 'as this person'
complete -c gw -n '__fish_seen_subcommand_from budgets; and __fish_seen_subcommand_from test' -l model -r -d 'the sample call\'s model'
complete -c gw -n '__fish_seen_subcommand_from budgets; and __fish_seen_subcommand_from test' -l input-tokens -r -d 'the sample call\'s input'
complete -c gw -n '__fish_seen_subcommand_from budgets; and __fish_seen_subcommand_from test' -l max-tokens -r -d 'the sample call\'s max_tokens'
complete -c gw -n '__fish_seen_subcommand_from budgets; and __fish_seen_subcommand_from test' -l home -r -d 'gw home folder (default: $GW_HOME or the platform config folder)'
complete -c gw -n '__fish_seen_subcommand_from budgets; and __fish_seen_subcommand_from test' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from budgets; and __fish_seen_subcommand_from help' -f -a 'set list remove test'

complete -c gw -n '__fish_seen_subcommand_from usage' -l by -r -d 'team, person, key, model, provider, day'
complete -c gw -n '__fish_seen_subcommand_from usage' -l since -r -d 'from this long ago (7d, 12h) or this date (2026-11-01)'
complete -c gw -n '__fish_seen_subcommand_from usage' -l until -r -d 'up to this long ago or this date (default now)'
complete -c gw -n '__fish_seen_subcommand_from usage' -l person -r -d 'only this person\'s calls'
complete -c gw -n '__fish_seen_subcommand_from usage' -l json -d 'print JSON'
complete -c gw -n '__fish_seen_subcommand_from usage' -l csv -d 'print CSV'
complete -c gw -n '__fish_seen_subcommand_from usage' -l file -r -d 'the trail to read (default: <home>/audit/audit.jsonl)'
complete -c gw -n '__fish_seen_subcommand_from usage' -l home -r -d 'gw home folder (default: $GW_HOME or the platform config folder)'
complete -c gw -n '__fish_seen_subcommand_from usage' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from db; and not __fish_seen_subcommand_from migrate help' -f -a 'migrate' -d 'Apply the schema versions this gw has and the database lacks (gw serve --store only checks)'
complete -c gw -n '__fish_seen_subcommand_from db; and not __fish_seen_subcommand_from migrate help' -f -a 'help' -d 'display help for command'
complete -c gw -n '__fish_seen_subcommand_from db' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from db; and __fish_seen_subcommand_from migrate' -l store -r -d 'the PostgreSQL store (GW_DATABASE_URL)'
complete -c gw -n '__fish_seen_subcommand_from db; and __fish_seen_subcommand_from migrate' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from db; and __fish_seen_subcommand_from help' -f -a 'migrate'

complete -c gw -n '__fish_seen_subcommand_from state; and not __fish_seen_subcommand_from export import help' -f -a 'export' -d 'Print the state (teams, people, key digests, tokens, policies, settings…) as JSON'
complete -c gw -n '__fish_seen_subcommand_from state; and not __fish_seen_subcommand_from export import help' -f -a 'import' -d 'Replace the state with an export (from a file, or - for standard input)'
complete -c gw -n '__fish_seen_subcommand_from state; and not __fish_seen_subcommand_from export import help' -f -a 'help' -d 'display help for command'
complete -c gw -n '__fish_seen_subcommand_from state' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from state; and __fish_seen_subcommand_from export' -l with-secrets -d 'include the hub secret (keep the output as safe as the hub itself)'
complete -c gw -n '__fish_seen_subcommand_from state; and __fish_seen_subcommand_from export' -l home -r -d 'gw home folder (default: $GW_HOME or the platform config folder)'
complete -c gw -n '__fish_seen_subcommand_from state; and __fish_seen_subcommand_from export' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from state; and __fish_seen_subcommand_from import' -l home -r -d 'gw home folder (default: $GW_HOME or the platform config folder)'
complete -c gw -n '__fish_seen_subcommand_from state; and __fish_seen_subcommand_from import' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from state; and __fish_seen_subcommand_from help' -f -a 'export import'

complete -c gw -n '__fish_seen_subcommand_from admin; and not __fish_seen_subcommand_from tokens help' -f -a 'tokens' -d 'Admin tokens: the credentials of /admin/api and the console'
complete -c gw -n '__fish_seen_subcommand_from admin; and not __fish_seen_subcommand_from tokens help' -f -a 'help' -d 'display help for command'
complete -c gw -n '__fish_seen_subcommand_from admin' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from admin; and __fish_seen_subcommand_from tokens; and not __fish_seen_subcommand_from create list revoke help' -f -a 'create' -d 'Make an admin token (shown once)'
complete -c gw -n '__fish_seen_subcommand_from admin; and __fish_seen_subcommand_from tokens; and not __fish_seen_subcommand_from create list revoke help' -f -a 'list' -d 'List admin tokens (never the tokens themselves)'
complete -c gw -n '__fish_seen_subcommand_from admin; and __fish_seen_subcommand_from tokens; and not __fish_seen_subcommand_from create list revoke help' -f -a 'revoke' -d 'Revoke an admin token: its API calls and console sessions stop at once'
complete -c gw -n '__fish_seen_subcommand_from admin; and __fish_seen_subcommand_from tokens; and not __fish_seen_subcommand_from create list revoke help' -f -a 'help' -d 'display help for command'
complete -c gw -n '__fish_seen_subcommand_from admin; and __fish_seen_subcommand_from tokens' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from admin; and __fish_seen_subcommand_from tokens; and __fish_seen_subcommand_from create' -l name -r -d 'who holds it (an email, or a label such as ci)'
complete -c gw -n '__fish_seen_subcommand_from admin; and __fish_seen_subcommand_from tokens; and __fish_seen_subcommand_from create' -l home -r -d 'gw home folder (default: $GW_HOME or the platform config folder)'
complete -c gw -n '__fish_seen_subcommand_from admin; and __fish_seen_subcommand_from tokens; and __fish_seen_subcommand_from create' -l hub -r -d 'a hub URL: do it over its admin API (admin token from GW_ADMIN_TOKEN)'
complete -c gw -n '__fish_seen_subcommand_from admin; and __fish_seen_subcommand_from tokens; and __fish_seen_subcommand_from create' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from admin; and __fish_seen_subcommand_from tokens; and __fish_seen_subcommand_from list' -l json -d 'print JSON'
complete -c gw -n '__fish_seen_subcommand_from admin; and __fish_seen_subcommand_from tokens; and __fish_seen_subcommand_from list' -l home -r -d 'gw home folder (default: $GW_HOME or the platform config folder)'
complete -c gw -n '__fish_seen_subcommand_from admin; and __fish_seen_subcommand_from tokens; and __fish_seen_subcommand_from list' -l hub -r -d 'a hub URL: do it over its admin API (admin token from GW_ADMIN_TOKEN)'
complete -c gw -n '__fish_seen_subcommand_from admin; and __fish_seen_subcommand_from tokens; and __fish_seen_subcommand_from list' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from admin; and __fish_seen_subcommand_from tokens; and __fish_seen_subcommand_from revoke' -l home -r -d 'gw home folder (default: $GW_HOME or the platform config folder)'
complete -c gw -n '__fish_seen_subcommand_from admin; and __fish_seen_subcommand_from tokens; and __fish_seen_subcommand_from revoke' -l hub -r -d 'a hub URL: do it over its admin API (admin token from GW_ADMIN_TOKEN)'
complete -c gw -n '__fish_seen_subcommand_from admin; and __fish_seen_subcommand_from tokens; and __fish_seen_subcommand_from revoke' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from admin; and __fish_seen_subcommand_from tokens; and __fish_seen_subcommand_from help' -f -a 'create list revoke'

complete -c gw -n '__fish_seen_subcommand_from admin; and __fish_seen_subcommand_from help' -f -a 'tokens'

complete -c gw -n '__fish_seen_subcommand_from run' -l home -r -d 'gw home folder (default: $GW_HOME or the platform config folder)'
complete -c gw -n '__fish_seen_subcommand_from run' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from token' -l home -r -d 'gw home folder (default: $GW_HOME or the platform config folder)'
complete -c gw -n '__fish_seen_subcommand_from token' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from mcp; and not __fish_seen_subcommand_from add list remove test help' -f -a 'add' -d 'Add (or replace) a server: --url for a remote one, --command for a local one gw starts'
complete -c gw -n '__fish_seen_subcommand_from mcp; and not __fish_seen_subcommand_from add list remove test help' -f -a 'list' -d 'List MCP servers (header and variable values only as env: references)'
complete -c gw -n '__fish_seen_subcommand_from mcp; and not __fish_seen_subcommand_from add list remove test help' -f -a 'remove' -d 'Remove an MCP server'
complete -c gw -n '__fish_seen_subcommand_from mcp; and not __fish_seen_subcommand_from add list remove test help' -f -a 'test' -d 'Connect to a server as gw would, list its tools, and say how long each step took'
complete -c gw -n '__fish_seen_subcommand_from mcp; and not __fish_seen_subcommand_from add list remove test help' -f -a 'help' -d 'display help for command'
complete -c gw -n '__fish_seen_subcommand_from mcp' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from mcp; and __fish_seen_subcommand_from add' -l url -r -d 'a remote server (streamable HTTP)'
complete -c gw -n '__fish_seen_subcommand_from mcp; and __fish_seen_subcommand_from add' -l transport -r -d 'http (default) or sse (the older transport) for --url'
complete -c gw -n '__fish_seen_subcommand_from mcp; and __fish_seen_subcommand_from add' -l header-env -r -d 'a header gw sends, read from this environment variable of gw serve (stored as env:VARIABLE), e.g. Authorization=GITHUB_MCP_AUTH'
complete -c gw -n '__fish_seen_subcommand_from mcp; and __fish_seen_subcommand_from add' -l header -r -d 'a header gw sends (value or env:VARIABLE); prefer --header-env for secrets'
complete -c gw -n '__fish_seen_subcommand_from mcp; and __fish_seen_subcommand_from add' -l command -r -d 'a local server gw starts as a child process (stdio), e.g. "npx -y @modelcontextprotocol/server-filesystem /srv"'
complete -c gw -n '__fish_seen_subcommand_from mcp; and __fish_seen_subcommand_from add' -l env -r -d 'a variable for the child (value or env:VARIABLE)'
complete -c gw -n '__fish_seen_subcommand_from mcp; and __fish_seen_subcommand_from add' -l home -r -d 'gw home folder (default: $GW_HOME or the platform config folder)'
complete -c gw -n '__fish_seen_subcommand_from mcp; and __fish_seen_subcommand_from add' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from mcp; and __fish_seen_subcommand_from list' -l json -d 'print JSON'
complete -c gw -n '__fish_seen_subcommand_from mcp; and __fish_seen_subcommand_from list' -l home -r -d 'gw home folder (default: $GW_HOME or the platform config folder)'
complete -c gw -n '__fish_seen_subcommand_from mcp; and __fish_seen_subcommand_from list' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from mcp; and __fish_seen_subcommand_from remove' -l home -r -d 'gw home folder (default: $GW_HOME or the platform config folder)'
complete -c gw -n '__fish_seen_subcommand_from mcp; and __fish_seen_subcommand_from remove' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from mcp; and __fish_seen_subcommand_from test' -l home -r -d 'gw home folder (default: $GW_HOME or the platform config folder)'
complete -c gw -n '__fish_seen_subcommand_from mcp; and __fish_seen_subcommand_from test' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from mcp; and __fish_seen_subcommand_from help' -f -a 'add list remove test'

complete -c gw -n '__fish_seen_subcommand_from completion' -f -a 'bash zsh fish'
complete -c gw -n '__fish_seen_subcommand_from completion' -s h -l help -d 'display help for command'

complete -c gw -n '__fish_seen_subcommand_from help' -f -a 'serve teams people device tokens login logout whoami keys settings providers routes policy dlp audit prices budgets usage db state admin run token mcp completion'
