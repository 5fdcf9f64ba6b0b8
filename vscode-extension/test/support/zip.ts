// Reads one file out of a zip archive (a .vsix), enough for the packaging test.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { inflateRawSync } from 'node:zlib';

export function zipEntries(archive: string): Map<string, () => Buffer> {
  const data = readFileSync(archive);
  const end = data.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) {
    throw new Error(`${archive} is not a zip archive`);
  }
  const count = data.readUInt16LE(end + 10);
  let offset = data.readUInt32LE(end + 16);
  const entries = new Map<string, () => Buffer>();
  for (let i = 0; i < count; i += 1) {
    const method = data.readUInt16LE(offset + 10);
    const compressedSize = data.readUInt32LE(offset + 20);
    const nameLength = data.readUInt16LE(offset + 28);
    const extraLength = data.readUInt16LE(offset + 30);
    const commentLength = data.readUInt16LE(offset + 32);
    const localHeader = data.readUInt32LE(offset + 42);
    const name = data.toString('utf8', offset + 46, offset + 46 + nameLength);
    entries.set(name, () => {
      const start = localHeader + 30 + data.readUInt16LE(localHeader + 26) + data.readUInt16LE(localHeader + 28);
      const raw = data.subarray(start, start + compressedSize);
      return method === 0 ? Buffer.from(raw) : inflateRawSync(raw);
    });
    offset += 46 + nameLength + extraLength + commentLength;
  }
  return entries;
}

/** Writes every file of `archive` under `folder`, as VS Code does when it installs a .vsix. */
export function extractZip(archive: string, folder: string): void {
  for (const [name, read] of zipEntries(archive)) {
    if (!name.endsWith('/')) {
      const file = join(folder, name);
      mkdirSync(dirname(file), { recursive: true });
      writeFileSync(file, read());
    }
  }
}
