// What a provider or MCP command answered: its output when it went through (with the notes it
// wrote to stderr, such as a takeover warning), its message as an alert when refused.
import { html } from '/ui/vendor/preact-htm.js';

export function RunResult({ run, label }) {
  if (!run) return null;
  if (run.error) return html`<p class="error" role="alert" aria-label=${label}>${run.error}</p>`;
  if (run.exit_code !== 0) return html`<p class="error" role="alert" aria-label=${label}>${(run.stderr || run.stdout).trim()}</p>`;
  const notes = run.stderr.trim();
  return html`<div role="status" aria-label=${label}><pre class="ok">${run.stdout.trim() || 'Done.'}</pre>${notes && html`<pre class="warn">${notes}</pre>`}</div>`;
}
