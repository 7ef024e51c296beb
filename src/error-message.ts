// What a caught value says, for a message to the user: an Error's message, else the value as text
// (what a catch clause holds is `unknown`, and may be anything that was thrown).
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
