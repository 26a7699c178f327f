/**
 * Sending one file of a run directory. A run being re-scored or a report being rebuilt replaces files while
 * the view serves them: the file is opened before any header goes out (gone by then: a 404 for this request),
 * its size read from the open handle, and its bytes streamed from that handle with `pipeline`, which ends this
 * response alone on a read error or a client that went away. The open handle keeps the bytes it had even if
 * the file is deleted or renamed over meanwhile (POSIX), so a response is never a mix of two versions. Exactly
 * the size read at open is sent: a file that grows meanwhile (a run in progress appending to results.jsonl)
 * is sent as it was, and one cut shorter fails this request, since a body that is not its Content-Length
 * would corrupt the kept-alive connection or leave the client waiting.
 */
import { open, type FileHandle } from 'node:fs/promises';
import type { ServerResponse } from 'node:http';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { HttpError } from './http-error.js';

/**
 * Passes the bytes on and fails at the end when there were not `size` of them. Hand-written: Node's own
 * check (`strictContentLength`) throws from inside the stream's end, outside any handler, and stops the server.
 */
function expectBytes(size: number, shownAs: string): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      done(null, chunk);
    },
    flush(done) {
      done(
        seen === size
          ? null
          : new HttpError(500, `${shownAs} was cut short while it was sent (${seen} of ${size} bytes)`),
      );
    },
  });
}

/** Sends `file` (already confined to the reports directory) with `headers` and its length. */
export async function sendFile(
  res: ServerResponse,
  file: string,
  shownAs: string,
  headers: Record<string, string>,
): Promise<void> {
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
    if (info.size === 0) {
      res.end();
      return;
    }
    await pipeline(
      handle.createReadStream({ autoClose: false, start: 0, end: info.size - 1 }),
      expectBytes(info.size, shownAs),
      res,
    );
  } catch (error) {
    // The client went away before the end: nothing to answer, nothing wrong with the server.
    if ((error as NodeJS.ErrnoException).code === 'ERR_STREAM_PREMATURE_CLOSE') return;
    throw error;
  } finally {
    await handle.close().catch(() => undefined);
  }
}
