/**
 * The entry names of a zip file (a `.vsix` is one), read from its central directory — no unzip
 * program needed. Enough for archives without a trailing comment longer than the search window.
 */
import { readFile } from 'node:fs/promises';

/** Signatures and fixed offsets of the zip format (APPNOTE.TXT 4.3.12, 4.3.16). */
const END_OF_CENTRAL_DIRECTORY = 0x06054b50;
const CENTRAL_DIRECTORY_ENTRY = 0x02014b50;
const END_RECORD_SIZE = 22;
const MAX_COMMENT = 0xffff;
const ENTRY_HEADER_SIZE = 46;

/** The names of every entry of the zip at `path`, in central-directory order. */
export async function zipEntryNames(path: string): Promise<string[]> {
  const zip = await readFile(path);
  const earliest = Math.max(0, zip.length - END_RECORD_SIZE - MAX_COMMENT);
  let end = -1;
  for (let at = zip.length - END_RECORD_SIZE; at >= earliest; at--) {
    if (zip.readUInt32LE(at) === END_OF_CENTRAL_DIRECTORY) {
      end = at;
      break;
    }
  }
  if (end < 0) throw new Error(`${path} is not a zip file (no end of central directory)`);
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  const names: string[] = [];
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(at) !== CENTRAL_DIRECTORY_ENTRY) throw new Error(`${path}: bad central directory entry ${i}`);
    const nameLength = zip.readUInt16LE(at + 28);
    const extraLength = zip.readUInt16LE(at + 30);
    const commentLength = zip.readUInt16LE(at + 32);
    names.push(zip.toString('utf8', at + ENTRY_HEADER_SIZE, at + ENTRY_HEADER_SIZE + nameLength));
    at += ENTRY_HEADER_SIZE + nameLength + extraLength + commentLength;
  }
  return names;
}
