// GET /protocol: the contract a Claude Code gateway states about itself (Anthropic's
// reference gateway serves its own), as markdown. The header tables are generated
// from header-rules.ts, the list upstream-headers.ts applies, so the page cannot
// drift from what gw sends.
import { HEADER_RULES, type HeaderRule, type HeaderTreatment } from './header-rules.js';

const TITLES: Record<HeaderTreatment, string> = {
  forward: 'Forwarded to the provider',
  consume: 'Consumed by gw (never sent on)',
  add: 'Added by gw',
};

function headerCell(rule: HeaderRule): string {
  return rule.prefix ? `\`${rule.name}*\`` : `\`${rule.name}\``;
}

function renderTable(treatment: HeaderTreatment): string {
  const rows = HEADER_RULES.filter((rule) => rule.treatment === treatment)
    .map((rule) => `| ${headerCell(rule)} | ${rule.note.replaceAll('|', '\\|')} |`);
  return [`## ${TITLES[treatment]}`, '', '| header | what gw does |', '|---|---|', ...rows].join('\n');
}

/** The page, for a gw of this version. */
export function renderProtocol(version: string): string {
  return [
    '# gw: Claude Code gateway protocol',
    '',
    `gw ${version}. Generated from the header list the gateway applies to every provider call.`,
    '',
    '## Endpoints',
    '',
    '- `POST /v1/messages`, `POST /v1/messages/count_tokens`: the Anthropic Messages API. To an Anthropic',
    '  provider the body goes byte for byte; only `model` is rewritten when a route or `provider/model` renames it.',
    '- `GET /v1/models`: to an Anthropic caller (an `anthropic-version` header or a Claude Code user-agent),',
    "  Anthropic's list shape with bare `claude-*` ids, filtered by the caller's model allow-list.",
    '- Errors on these routes use the Anthropic envelope: `{"type":"error","error":{"type","message"}}`.',
    '',
    renderTable('forward'),
    '',
    renderTable('consume'),
    '',
    renderTable('add'),
    '',
  ].join('\n');
}
