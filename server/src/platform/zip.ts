import { promisify } from 'node:util';
import { crc32, inflateRaw } from 'node:zlib';
import { badRequest, unprocessable } from './errors.js';

/**
 * Reads an uploaded ZIP package (an .xlsx is one) without trusting it: the central directory — small, at the
 * end of the file — is checked against the limits BEFORE anything is unpacked, and each part is then unpacked
 * to at most the size the directory declared (a package whose data unpacks to more is lying, and is refused
 * as soon as it passes that size). Unpacking runs on libuv's thread pool, off the event loop.
 */

export interface ZipLimits {
  /** Most parts (entries) a package may hold. */
  maxEntries: number;
  /** Most bytes all its parts together may declare unpacked. */
  maxUnpackedBytes: number;
  /** Highest unpacked : packed ratio a part larger than RATIO_FLOOR_BYTES may declare. */
  maxRatio: number;
}

/** Parts smaller than this unpacked may compress as well as they like: they cannot hurt. */
const RATIO_FLOOR_BYTES = 1024 * 1024;

export interface ZipEntry {
  name: string;
  method: number;
  flags: number;
  crc32: number;
  packedSize: number;
  size: number;
  localHeaderOffset: number;
}

const END_OF_DIRECTORY = 0x06054b50;
const DIRECTORY_ENTRY = 0x02014b50;
const LOCAL_HEADER = 0x04034b50;
const ZIP64_MARK = 0xffffffff;
const STORED = 0;
const DEFLATED = 8;
const ENCRYPTED_FLAG = 0x1;

const inflateRawAsync = promisify(inflateRaw);
const mb = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

/** Refusals name the file, under `file`, as every upload error does. */
const refused = (fileName: string, reason: string) => {
  const message = `${fileName} ${reason}`;
  return unprocessable(message, { file: message });
};
/** 400: the upload is not a workbook we can read (the one message for every way a package can be broken). */
export const unreadable = (fileName: string) => {
  const message = `${fileName} could not be read as an Excel (.xlsx) workbook`;
  return badRequest(message, { file: message });
};

/**
 * The package's parts, from its central directory, refused (422) when there are too many, when together they
 * unpack to more than the limit, or when one is packed more tightly than a real document is.
 */
export function readZipDirectory(bytes: Buffer, fileName: string, limits: ZipLimits): Map<string, ZipEntry> {
  const end = findEndOfDirectory(bytes);
  if (end < 0) throw unreadable(fileName);
  const directorySize = bytes.readUInt32LE(end + 12);
  const directoryOffset = bytes.readUInt32LE(end + 16);
  // ZIP64 packages (over 4 GB or 65,535 parts) are never a spreadsheet this app takes.
  if (directoryOffset === ZIP64_MARK || directorySize === ZIP64_MARK || directoryOffset + directorySize > end) throw unreadable(fileName);

  const entries = new Map<string, ZipEntry>();
  let count = 0;
  let unpacked = 0;
  // Walk the records themselves: the 16-bit count at the end wraps, so it proves nothing.
  for (let at = directoryOffset; at < directoryOffset + directorySize;) {
    if (at + 46 > end || bytes.readUInt32LE(at) !== DIRECTORY_ENTRY) throw unreadable(fileName);
    if (++count > limits.maxEntries) throw refused(fileName, `holds more than ${limits.maxEntries.toLocaleString('en-US')} parts; no spreadsheet this upload takes has so many`);
    const nameLength = bytes.readUInt16LE(at + 28);
    const entry: ZipEntry = {
      flags: bytes.readUInt16LE(at + 8),
      method: bytes.readUInt16LE(at + 10),
      crc32: bytes.readUInt32LE(at + 16),
      packedSize: bytes.readUInt32LE(at + 20),
      size: bytes.readUInt32LE(at + 24),
      localHeaderOffset: bytes.readUInt32LE(at + 42),
      name: bytes.toString('utf8', at + 46, at + 46 + nameLength),
    };
    unpacked += entry.size;
    if (unpacked > limits.maxUnpackedBytes) throw refused(fileName, `unpacks to more than ${mb(limits.maxUnpackedBytes)}; split it into smaller files`);
    if (entry.size > RATIO_FLOOR_BYTES && entry.size > entry.packedSize * limits.maxRatio) {
      throw refused(fileName, `is packed more than ${limits.maxRatio} to 1, which no real spreadsheet is`);
    }
    if (!entries.has(entry.name)) entries.set(entry.name, entry);
    at += 46 + nameLength + bytes.readUInt16LE(at + 30) + bytes.readUInt16LE(at + 32);
  }
  return entries;
}

function findEndOfDirectory(bytes: Buffer): number {
  // The record is 22 bytes plus a comment of at most 65,535; search back from the end for its signature.
  const lowest = Math.max(0, bytes.length - 22 - 0xffff);
  for (let at = bytes.length - 22; at >= lowest; at--) {
    if (bytes.readUInt32LE(at) === END_OF_DIRECTORY && at + 22 + bytes.readUInt16LE(at + 20) <= bytes.length) return at;
  }
  return -1;
}

/**
 * One part's bytes, unpacked to at most its declared size: more is a lie and is refused (422) the moment it
 * shows; a part that unpacks to less, fails its checksum or uses another packing is unreadable (400).
 */
export async function unpackEntry(bytes: Buffer, entry: ZipEntry, fileName: string): Promise<Buffer> {
  const at = entry.localHeaderOffset;
  if (at + 30 > bytes.length || bytes.readUInt32LE(at) !== LOCAL_HEADER || entry.flags & ENCRYPTED_FLAG) throw unreadable(fileName);
  const start = at + 30 + bytes.readUInt16LE(at + 26) + bytes.readUInt16LE(at + 28);
  if (start + entry.packedSize > bytes.length) throw unreadable(fileName);
  const packed = bytes.subarray(start, start + entry.packedSize);
  let data: Buffer;
  if (entry.method === STORED) {
    data = packed;
  } else if (entry.method === DEFLATED) {
    try {
      data = await inflateRawAsync(packed, { maxOutputLength: Math.max(entry.size, 1), chunkSize: 64 * 1024 });
    } catch (err) {
      if ((err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') throw refused(fileName, `unpacks to more than its parts declare (${entry.name}); it is refused`);
      throw unreadable(fileName);
    }
  } else {
    throw unreadable(fileName);
  }
  if (data.length !== entry.size || crc32(data) !== entry.crc32) throw unreadable(fileName);
  return data;
}
