/** Reads a markdown file of the dataset strictly as UTF-8: a file in another encoding is an input error. */
import { readFile } from 'node:fs/promises';
import { UsageError } from '../errors.js';

const decoder = new TextDecoder('utf-8', { fatal: true });

export async function readMarkdownFile(file: string): Promise<string> {
  const bytes = await readFile(file);
  try {
    return decoder.decode(bytes);
  } catch {
    throw new UsageError(`${file} is not valid UTF-8`, { code: 'DATASET_INVALID', subject: file, hint: 'convert the file to UTF-8 (e.g. iconv -t UTF-8)' });
  }
}
