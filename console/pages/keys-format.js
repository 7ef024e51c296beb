// How the Keys, People and Teams pages show a time: in the reader's local time, short, with the
// exact ISO time in the element (a <time datetime>) for a tooltip and for the tests.
import { html } from '/ui/vendor/preact-htm.js';

const THIS_YEAR = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });
const OTHER_YEAR = new Intl.DateTimeFormat(undefined, { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });

/** A time, local and short (the year only when it is not this one); `none` when there is none. */
export function When({ at, none = '' }) {
  if (!at) return html`<span class="hint">${none}</span>`;
  const date = new Date(at);
  const format = date.getFullYear() === new Date().getFullYear() ? THIS_YEAR : OTHER_YEAR;
  return html`<time datetime=${at} title=${at}>${format.format(date)}</time>`;
}

/** The plural a count needs: "1 session key", "2 session keys". */
export const count = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;
