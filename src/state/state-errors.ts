// Errors the state layer throws. Each has a one-line message meant for a person
// (the CLI prints it as is, the server logs it) and a kind, so callers can map
// it to an exit code or a response without matching on message text.

/** usage: the input is malformed; refused: well-formed but not allowed now;
 *  broken: state.json cannot be understood; access: the file system said no. */
export type StateErrorKind = 'usage' | 'refused' | 'broken' | 'access';

export class StateError extends Error {
  constructor(readonly kind: StateErrorKind, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'StateError';
  }
}

/** state.json exists but is not valid JSON or not the shape gw writes. */
export class StateFileError extends StateError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('broken', message, options);
    this.name = 'StateFileError';
  }
}

/** The home folder or state file cannot be read, written or locked. */
export class StateAccessError extends StateError {
  constructor(message: string, options?: { cause?: unknown }) {
    super('access', message, options);
    this.name = 'StateAccessError';
  }
}

/** A name, duration or setting value that does not parse. */
export class StateInputError extends StateError {
  constructor(message: string) {
    super('usage', message);
    this.name = 'StateInputError';
  }
}

/** A valid request the current state does not allow: unknown team, duplicate name, unknown key. */
export class StateRefusedError extends StateError {
  constructor(message: string) {
    super('refused', message);
    this.name = 'StateRefusedError';
  }
}

const FS_REASONS: Record<string, string> = {
  EACCES: 'permission denied',
  ENOENT: 'no such file or folder',
  EPERM: 'permission denied',
  EROFS: 'read-only file system',
  ENOSPC: 'no space left on device',
  EDQUOT: 'disk quota exceeded',
  ENOTDIR: 'a parent is not a folder',
  EISDIR: 'is a folder',
  EEXIST: 'exists and is not a folder',
};

/** `cannot write /x: permission denied` from a Node fs error, never with a stack. */
export function toAccessError(verb: 'read' | 'write' | 'lock', target: string, error: unknown): StateAccessError {
  const code = errorCode(error);
  const reason = (code && FS_REASONS[code]) ?? (code ?? (error instanceof Error ? error.message : String(error)));
  return new StateAccessError(`cannot ${verb} ${target}: ${reason}`, { cause: error });
}

export function errorCode(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'code' in error && typeof error.code === 'string') return error.code;
  return undefined;
}
