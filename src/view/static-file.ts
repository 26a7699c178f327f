/**
 * Sending one file of a run directory. A run being re-scored or a report being rebuilt replaces files while
 * the view serves them: the file is opened before any header goes out (gone by then: a 404 for this request),
 * its size read from the open handle, and its bytes streamed from that handle with `pipeline`, which ends this
 * response alone on a read error or a client that went away. The open handle keeps the bytes it had even if
 * the file is deleted or renamed over meanwhile (POSIX), so a response is never a mix of two versions.
 */
import { open, type FileHandle } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { pipeline } from 'node:stream/promises';
import { HttpError } from './http-error.js';

/** Sends `file` (already confined to the reports directory) with `headers` and its length. */
export async function sendFile(res: ServerResponse, file: string, shownAs: string, headers: Record<string, string>): Promise<void> {
  let handle: FileHandle;
  try {
    handle = await open(file, 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'EISDIR') throw new HttpError(404, `no file ${shownAs}`);
    throw error;
  }
  try {
    const info = await handle.stat();
    if (!info.isFile()) throw new HttpError(404, `no file ${shownAs}`);
    res.writeHead(200, { ...headers, 'content-length': String(info.size) });
    await pipeline(handle.createReadStream({ autoClose: false }), res);
  } catch (error) {
    // The client went away before the end: nothing to answer, nothing wrong with the server.
    if ((error as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE') return;
    throw error;
  } finally {
    await handle.close().catch(() => undefined);
  }
}
