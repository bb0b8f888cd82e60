import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Executor } from '../db/schema.js';
import { badRequest } from './errors.js';

/** The file kinds uploads may carry, told apart by their bytes, never by the name or the client's claim. */
export type FileKind = 'pdf' | 'png' | 'jpeg' | 'xlsx' | 'docx' | 'csv';

export const FILE_KINDS: Record<FileKind, { mime: string; extensions: string[]; label: string }> = {
  pdf: { mime: 'application/pdf', extensions: ['pdf'], label: 'PDF' },
  png: { mime: 'image/png', extensions: ['png'], label: 'PNG' },
  jpeg: { mime: 'image/jpeg', extensions: ['jpg', 'jpeg'], label: 'JPEG' },
  xlsx: { mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', extensions: ['xlsx'], label: 'XLSX' },
  docx: { mime: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', extensions: ['docx'], label: 'DOCX' },
  csv: { mime: 'text/csv', extensions: ['csv'], label: 'CSV' },
};

const startsWith = (bytes: Buffer, signature: number[]) => signature.every((b, i) => bytes[i] === b);
const ZIP = [0x50, 0x4b, 0x03, 0x04];

/**
 * What a file really is, from its magic bytes: PDF, PNG, JPEG; XLSX and DOCX are ZIP packages told apart by
 * their main part's name; CSV has no signature, so it is valid UTF-8 text without control characters.
 */
export function sniffFileKind(bytes: Buffer): FileKind | null {
  if (startsWith(bytes, [0x25, 0x50, 0x44, 0x46, 0x2d])) return 'pdf';
  if (startsWith(bytes, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'png';
  if (startsWith(bytes, [0xff, 0xd8, 0xff])) return 'jpeg';
  if (startsWith(bytes, ZIP)) {
    if (bytes.includes('xl/workbook.xml')) return 'xlsx';
    if (bytes.includes('word/document.xml')) return 'docx';
    return null;
  }
  return isPlainText(bytes) ? 'csv' : null;
}

function isPlainText(bytes: Buffer): boolean {
  if (bytes.length === 0) return false;
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return false;
  }
  return !/[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(text);
}

export const extensionOf = (fileName: string) => (/\.([A-Za-z0-9]+)$/.exec(fileName)?.[1] ?? '').toLowerCase();

export interface UploadRule {
  allowed: readonly FileKind[];
  maxBytes: number;
}

/**
 * Checks an upload against a rule: the content's kind must be allowed AND match the name's extension (a
 * program renamed to .pdf is refused). Answers the kind and the MIME type to store.
 */
export function checkUpload(file: { fileName: string; bytes: Buffer }, rule: UploadRule): { kind: FileKind; mimeType: string } {
  const allowedLabels = rule.allowed.map((k) => FILE_KINDS[k].label).join(', ');
  if (file.bytes.length === 0) throw badRequest('The file is empty', { file: 'The file is empty' });
  if (file.bytes.length > rule.maxBytes) throw tooLarge(rule.maxBytes);
  const ext = extensionOf(file.fileName);
  const kind = sniffFileKind(file.bytes);
  if (!kind || !rule.allowed.includes(kind) || !FILE_KINDS[kind].extensions.includes(ext)) {
    const message = `Only ${allowedLabels} files are allowed, and the file's name must match its content`;
    throw badRequest(message, { file: message });
  }
  return { kind, mimeType: FILE_KINDS[kind].mime };
}

export function tooLarge(maxBytes: number) {
  const message = `The file is larger than ${Math.round(maxBytes / (1024 * 1024))} MB`;
  return badRequest(message, { file: message });
}

export interface StoredFile {
  id: number;
  fileName: string;
  mimeType: string;
  sizeBytes: number;
  sha256: string;
}

/** Keeps a checked file's bytes; call it in the transaction that records what the file belongs to. */
export async function storeFile(tx: Executor, file: { fileName: string; mimeType: string; bytes: Buffer; createdBy: number | null }): Promise<StoredFile> {
  const sha256 = createHash('sha256').update(file.bytes).digest('hex');
  const fileName = safeFileName(file.fileName);
  const { id } = await tx.insertInto('stored_file').values({
    file_name: fileName, mime_type: file.mimeType, size_bytes: file.bytes.length, sha256, content: file.bytes,
    created_by: file.createdBy, created_at: new Date().toISOString(),
  }).returning('id').executeTakeFirstOrThrow();
  return { id, fileName, mimeType: file.mimeType, sizeBytes: file.bytes.length, sha256 };
}

/** A stored file with its bytes. */
export async function readStoredFile(db: Executor, id: number): Promise<(StoredFile & { bytes: Buffer }) | undefined> {
  const row = await db.selectFrom('stored_file').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) return undefined;
  return { id: row.id, fileName: row.file_name, mimeType: row.mime_type, sizeBytes: Number(row.size_bytes), sha256: row.sha256, bytes: Buffer.from(row.content) };
}

export async function deleteStoredFile(tx: Executor, id: number): Promise<void> {
  await tx.deleteFrom('stored_file').where('id', '=', id).execute();
}

/** The name a file is kept and offered under: no path, no control or quoting characters, at most 200 chars. */
export function safeFileName(name: string): string {
  const base = name.split(/[\\/]/).pop() ?? '';
  const cleaned = base.replace(/[\u0000-\u001f\u007f"<>|:*?]/g, '_').trim().slice(-200);
  return cleaned || 'file';
}

/** The largest file any upload takes (the multipart plugin's limit in app.ts); routes may take less. */
export const UPLOAD_MAX_BYTES = 20 * 1024 * 1024;

/** A file part as read (an oversized one marked, its bytes dropped). */
export interface ReceivedFilePart { fieldname: string; fileName: string; bytes: Buffer; oversized: boolean }

/** A multipart request's parts as read: text fields, its first file part, and every file part. */
export interface ReceivedParts {
  fields: Record<string, string>;
  file: ReceivedFilePart | null;
  files: ReceivedFilePart[];
}

/** Most file parts any request may carry (a route takes at most what it says: one, unless it asks for more). */
export const MAX_FILES_PER_REQUEST = 10;

declare module 'fastify' {
  interface FastifyRequest {
    /** The parts once read: the idempotency check reads a keyed upload before its handler does. */
    receivedParts?: ReceivedParts;
  }
}

/**
 * Reads a multipart/form-data request's parts: its text fields and its files, each up to `maxBytes` (a larger one
 * is drained and marked, never kept whole in memory); more than `maxFiles` files are refused ("one at a time" for
 * the usual one). A request's parts are read once; later calls answer the same parts, held to their own `maxFiles`.
 */
export async function receiveParts(req: FastifyRequest, maxBytes = UPLOAD_MAX_BYTES, maxFiles = 1): Promise<ReceivedParts> {
  if (!req.isMultipart()) throw badRequest('Send the form as multipart/form-data');
  const parts = req.receivedParts ?? await readParts(req, maxBytes);
  req.receivedParts = parts;
  if (parts.files.length > maxFiles) {
    const message = maxFiles === 1 ? 'Upload one file at a time' : `At most ${maxFiles} files at a time`;
    throw badRequest(message, { file: message });
  }
  return parts;
}

async function readParts(req: FastifyRequest, maxBytes: number): Promise<ReceivedParts> {
  const parts: ReceivedParts = { fields: {}, file: null, files: [] };
  // throwFileSizeLimit off: an oversized file is marked truncated and drained; callers refuse it with our message.
  // (parts() reads the option at run time; its typings leave it out, hence the variable.)
  const options = { limits: { fileSize: maxBytes }, throwFileSizeLimit: false };
  for await (const part of req.parts(options)) {
    if (part.type === 'field') {
      if (typeof part.value === 'string') parts.fields[part.fieldname] = part.value;
      continue;
    }
    if (parts.files.length === MAX_FILES_PER_REQUEST) {
      const message = `At most ${MAX_FILES_PER_REQUEST} files at a time`;
      throw badRequest(message, { file: message });
    }
    const chunks: Buffer[] = [];
    for await (const chunk of part.file) chunks.push(chunk as Buffer);
    const oversized = part.file.truncated;
    parts.files.push({ fieldname: part.fieldname, fileName: part.filename, bytes: oversized ? Buffer.alloc(0) : Buffer.concat(chunks), oversized });
    parts.file ??= parts.files[0];
  }
  return parts;
}

/**
 * What a multipart request carries, for its Idempotency-Key fingerprint: the fields (in name order) and the
 * file's field, name, size and content hash — not the raw body, whose boundary differs on every send.
 */
export function partsFingerprint(parts: ReceivedParts) {
  const print = (f: ReceivedFilePart) => ({ field: f.fieldname, name: f.fileName, size: f.bytes.length, oversized: f.oversized, sha256: createHash('sha256').update(f.bytes).digest('hex') });
  return {
    fields: Object.entries(parts.fields).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
    file: parts.file && print(parts.file),
    ...(parts.files.length > 1 ? { more: parts.files.slice(1).map(print) } : {}),
  };
}

/** An upload as received: the form's text fields and its one file part, bounded in size while it streams. */
export interface ReceivedUpload {
  fields: Record<string, string>;
  file: { fileName: string; bytes: Buffer } | null;
}

/**
 * Reads a multipart/form-data request: text fields, and one file part named `fileField`. The file is read up
 * to `maxBytes`; a larger one is refused with 400 without keeping more than that in memory.
 */
export async function receiveUpload(req: FastifyRequest, opts: { maxBytes: number; fileField?: string }): Promise<ReceivedUpload> {
  const { fields, file } = await receiveParts(req, opts.maxBytes);
  // Parts read early (a keyed request) were bounded by the largest upload only: this route's bound applies here.
  if (file && (file.oversized || file.bytes.length > opts.maxBytes)) throw tooLarge(opts.maxBytes);
  return { fields, file: file && file.fieldname === (opts.fileField ?? 'file') ? { fileName: file.fileName, bytes: file.bytes } : null };
}

/**
 * Reads a multipart request of several files (the parts named `fileField`, up to `maxFiles`, each up to
 * `maxBytes`: a larger one is refused by name) and its text fields.
 */
export async function receiveFiles(req: FastifyRequest, opts: { maxBytes: number; maxFiles: number; fileField: string }) {
  const { fields, files } = await receiveParts(req, opts.maxBytes, opts.maxFiles);
  const over = files.find((f) => f.oversized || f.bytes.length > opts.maxBytes);
  if (over) {
    const message = `${safeFileName(over.fileName)}: ${tooLarge(opts.maxBytes).message}`;
    throw badRequest(message, { [over.fileName]: message });
  }
  return { fields, files: files.filter((f) => f.fieldname === opts.fileField).map((f) => ({ fileName: f.fileName, bytes: f.bytes })) };
}

/** Sends a stored file as a download under its stored name and type. */
export function sendStoredFile(reply: FastifyReply, file: StoredFile & { bytes: Buffer }) {
  const ascii = file.fileName.replace(/[^\x20-\x7e]/g, '_').replace(/["\\]/g, '_');
  return reply
    .type(file.mimeType)
    .header('content-disposition', `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.fileName)}`)
    .header('x-content-type-options', 'nosniff')
    .header('content-length', String(file.bytes.length))
    .send(file.bytes);
}

/** Validates an upload's text fields with a schema; failures answer 400 with the field messages, like a JSON body. */
export function parseFields<T>(schema: { safeParse(v: unknown): { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } } }, fields: Record<string, string>): T {
  const parsed = schema.safeParse(fields);
  if (parsed.success) return parsed.data;
  const details: Record<string, string> = {};
  for (const issue of parsed.error.issues) details[issue.path.map(String).join('.') || 'body'] ??= issue.message;
  throw badRequest(Object.values(details)[0] ?? 'Validation failed', details);
}
