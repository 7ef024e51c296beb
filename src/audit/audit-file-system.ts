// The few file calls the writer makes, behind an interface so a test can
// inject ENOSPC or EIO without root tricks (a full tmpfs, a dm-error device).
// Writes and truncation are synchronous: a batch of records lands in the page cache in
// a few microseconds, while a write through the thread pool costs two thread hand-offs
// per batch (at one request at a time, a batch per request). fdatasync, which waits on
// the disk, stays asynchronous.
import { ftruncateSync, writeSync } from 'node:fs';
import { open, rename, unlink, type FileHandle } from 'node:fs/promises';

export interface AuditLogFile {
  /** Writes `data` from `offset` at `position`; may write fewer bytes than asked (a short write), like write(2). Throws on failure. */
  write(data: Buffer, offset: number, position: number): number;
  datasync(): Promise<void>;
  truncate(length: number): void;
  close(): Promise<void>;
}

export interface AuditFileSystem {
  /** Opens (creating with mode 0600) the log for writing at explicit positions. */
  openLog(file: string): Promise<AuditLogFile>;
  /** Replaces `file` atomically: temp file, optional fdatasync, rename. */
  replaceFile(file: string, data: string, sync: boolean): Promise<void>;
}

function wrapHandle(handle: FileHandle): AuditLogFile {
  return {
    write: (data, offset, position) => writeSync(handle.fd, data, offset, data.length - offset, position),
    datasync: () => handle.datasync(),
    truncate: (length) => ftruncateSync(handle.fd, length),
    close: () => handle.close(),
  };
}

async function replaceFile(file: string, data: string, sync: boolean): Promise<void> {
  const temp = `${file}.tmp`;
  const handle = await open(temp, 'w', 0o600);
  try {
    await handle.writeFile(data, 'utf8');
    if (sync) await handle.datasync();
  } catch (error) {
    await handle.close();
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  await handle.close();
  await rename(temp, file);
}

export const nodeAuditFileSystem: AuditFileSystem = {
  // 'a' is not used: writes go to explicit offsets so a failed batch can be overwritten in place.
  openLog: async (file) => wrapHandle(await open(file, 'r+', 0o600).catch(async (error: NodeJS.ErrnoException) => {
    if (error.code !== 'ENOENT') throw error;
    return open(file, 'wx+', 0o600);
  })),
  replaceFile,
};
