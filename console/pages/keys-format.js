// How every console page shows a time (issue 40: one date format across pages): in the reader's
// local time, "Dec 8, 14:05:09" (the year only when it is not this one), with the exact ISO time
// in the element (a <time datetime>) for a tooltip and for the tests.
import { html } from '/ui/vendor/preact-htm.js';

const PARTS = { month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' };
const THIS_YEAR = new Intl.DateTimeFormat(undefined, PARTS);
const OTHER_YEAR = new Intl.DateTimeFormat(undefined, { year: 'numeric', ...PARTS });

/** An ISO time as the console writes every time; the text itself when it is not a time. */
export function timeText(at) {
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) return at ?? '';
  return (date.getFullYear() === new Date().getFullYear() ? THIS_YEAR : OTHER_YEAR).format(date);
}

/** A time, local and short (the year only when it is not this one); `none` when there is none. */
export function When({ at, none = '' }) {
  if (!at) return html`<span class="hint">${none}</span>`;
  return html`<time datetime=${at} title=${at}>${timeText(at)}</time>`;
}

/** The plural a count needs: "1 session key", "2 session keys". */
export const count = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;
