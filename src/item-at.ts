// An array's item at an index the caller has already bounded (a loop's limit, a length check, a
// search's result): checked rather than asserted with `!`, so a wrong index fails where it is read
// instead of as an undefined further on.
export function itemAt<T>(items: readonly T[], index: number): T {
  const item = items[index];
  if (item === undefined) throw new RangeError(`no item at index ${index} of ${items.length}`);
  return item;
}
