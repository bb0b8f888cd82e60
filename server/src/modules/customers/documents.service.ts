import {
  addCustomerDocumentFields, CUSTOMER_DOCUMENT_MAX_BYTES, CUSTOMER_DOCUMENT_TYPES, updateCustomerDocumentFields, type CustomerDocument,
} from '@bolx/contracts';
import type { Db, Executor } from '../../db/schema.js';
import type { Actor } from '../../platform/actor.js';
import type { ChangeRecorder } from '../../platform/change-recorder.js';
import { badRequest, notFound } from '../../platform/errors.js';
import { checkUpload, deleteStoredFile, parseFields, readStoredFile, storeFile, type ReceivedUpload, type UploadRule } from '../../platform/files.js';
import type { Principal } from '../../platform/principal.js';
import { inTransaction } from '../../platform/unit-of-work.js';
import type { ServiceDeps } from '../../platform/service-deps.js';
import { requireCustomer } from './customer-access.js';
import { documentRepository as repo } from './documents.repository.js';

export const CUSTOMER_DOCUMENT_RULE: UploadRule = { allowed: CUSTOMER_DOCUMENT_TYPES, maxBytes: CUSTOMER_DOCUMENT_MAX_BYTES };

type DocumentRow = NonNullable<Awaited<ReturnType<typeof repo.find>>>;

function toDocument(d: DocumentRow): CustomerDocument {
  return {
    uniqueid: d.id, documentId: d.id, customerId: d.customer_id, documentTypeId: d.document_type_id, documentTypeName: d.type_name,
    fileName: d.file_name, mimeType: d.mime_type, sizeBytes: Number(d.size_bytes), sha256: d.sha256, notes: d.notes,
    uploadedBy: d.uploaded_by, createdAt: d.created_at, updatedAt: d.updated_at,
  };
}

/** A customer's documents (contract, rate sheet, insurance certificate…): uploaded, checked, kept, downloaded. */
export class CustomerDocumentService {
  private readonly db: Db;
  private readonly recorder: ChangeRecorder;
  constructor(deps: Pick<ServiceDeps, 'db' | 'recorder'>) {
    this.db = deps.db;
    this.recorder = deps.recorder;
  }

  async types() {
    return (await repo.types(this.db)).map((t) => ({ uniqueid: t.id, documentTypeId: t.id, documentTypeName: t.name }));
  }

  async list(principal: Principal, customerId: number) {
    await requireCustomer(this.db, principal, customerId);
    return (await repo.ofCustomer(this.db, customerId)).map(toDocument);
  }

  async add(principal: Principal, upload: ReceivedUpload, actor: Actor) {
    const fields = parseFields(addCustomerDocumentFields, upload.fields);
    await requireCustomer(this.db, principal, fields.customerId);
    await this.requireType(fields.documentTypeId);
    if (!upload.file) throw badRequest('Please select a file!', { file: 'Please select a file!' });
    const file = upload.file;
    const { mimeType } = checkUpload(file, CUSTOMER_DOCUMENT_RULE);
    const now = new Date().toISOString();
    const created = await inTransaction(this.db, async (uow) => {
      const { tx } = uow;
      const stored = await storeFile(tx, { fileName: file.fileName, mimeType, bytes: file.bytes, createdBy: actor.userId });
      const id = await repo.insert(tx, {
        customer_id: fields.customerId, document_type_id: fields.documentTypeId, file_id: stored.id, notes: fields.notes || null,
        uploaded_by: actor.username, created_at: now, updated_at: now,
      });
      const after = await this.load(tx, id);
      await this.recorder.record(uow, actor, { audit: { action: 'create', entity: 'customer_document', entityId: id, customerId: fields.customerId, after } });
      return after;
    });
    return { message: 'Document uploaded successfully', data: created };
  }

  /** Changes a document's type and notes; a file sent with it replaces the stored file. */
  async update(principal: Principal, upload: ReceivedUpload, actor: Actor) {
    const fields = parseFields(updateCustomerDocumentFields, upload.fields);
    const before = await this.requireDocument(principal, fields.documentId);
    await this.requireType(fields.documentTypeId);
    const file = upload.file;
    const checked = file ? checkUpload(file, CUSTOMER_DOCUMENT_RULE) : null;
    const updated = await inTransaction(this.db, async (uow) => {
      const { tx } = uow;
      let fileId: number | undefined;
      if (file && checked) fileId = (await storeFile(tx, { fileName: file.fileName, mimeType: checked.mimeType, bytes: file.bytes, createdBy: actor.userId })).id;
      await repo.update(tx, before.documentId, {
        document_type_id: fields.documentTypeId, notes: fields.notes || null, updated_at: new Date().toISOString(),
        ...(fileId !== undefined ? { file_id: fileId, uploaded_by: actor.username } : {}),
      });
      if (fileId !== undefined) await deleteStoredFile(tx, before.fileId);
      const after = await this.load(tx, before.documentId);
      await this.recorder.record(uow, actor, {
        audit: { action: 'update', entity: 'customer_document', entityId: before.documentId, customerId: before.customerId, before: before.document, after },
      });
      return after;
    });
    return { message: 'Document updated successfully', data: updated };
  }

  /** The document's file, for a download. */
  async file(principal: Principal, documentId: number) {
    const doc = await this.requireDocument(principal, documentId);
    const file = await readStoredFile(this.db, doc.fileId);
    if (!file) throw notFound('Document file');
    return file;
  }

  private async requireType(id: number) {
    const type = await repo.findType(this.db, id);
    if (!type) throw badRequest('Please select a document type!', { documentTypeId: 'Unknown document type' });
    return type;
  }

  /** A document the caller may see: 404 when there is none, 403 for another customer's. */
  private async requireDocument(principal: Principal, id: number) {
    const row = await repo.find(this.db, id);
    if (!row) throw notFound('Document');
    await requireCustomer(this.db, principal, row.customer_id);
    return { documentId: row.id, customerId: row.customer_id, fileId: row.file_id, document: toDocument(row) };
  }

  private async load(db: Executor, id: number) {
    return toDocument((await repo.find(db, id))!);
  }
}
