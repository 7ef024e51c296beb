// The few file calls the writer makes, behind an interface so a test can
// inject ENOSPC or EIO without root tricks (a full tmpfs, a dm-error device).
import { open, rename, unlink, type FileHandle } from 'node:fs/promises';

export interface AuditLogFile {
  /** Writes `data` at `position`; may write fewer bytes than asked (a short write), like write(2). */
  write(data: Buffer, offset: number, position: number): Promise<number>;
  datasync(): Promise<void>;
  truncate(length: number): Promise<void>;
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
    write: async (data, offset, position) => (await handle.write(data, offset, data.length - offset, position)).bytesWritten,
    datasync: () => handle.datasync(),
    truncate: (length) => handle.truncate(length),
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
