import { MAX_ORDER_DOCUMENTS, ORDER_DOCUMENT_MAX_BYTES, orderDocumentFields } from '@bolx/contracts';
import type { Db } from '../../db/schema.js';
import type { Actor } from '../../platform/actor.js';
import type { ChangeRecorder } from '../../platform/change-recorder.js';
import { AppError, badRequest, conflict, notFound, unprocessable } from '../../platform/errors.js';
import { checkUpload, deleteStoredFile, parseFields, readStoredFile, safeFileName, storeFile, type UploadRule } from '../../platform/files.js';
import type { Principal } from '../../platform/principal.js';
import { Scope } from '../../platform/scope.js';
import type { ServiceDeps } from '../../platform/service-deps.js';
import { inTransaction, type UnitOfWork } from '../../platform/unit-of-work.js';
import { orderDocumentRepository as docs } from './order-documents.repository.js';
import { orderRepository as orders } from './orders.repository.js';
import { toSummary } from './orders.service.js';

/** Spec section 5: an order's documents are PDF, Excel or CSV, told by their content. */
export const ORDER_DOCUMENT_RULE: UploadRule = { allowed: ['pdf', 'xlsx', 'csv'], maxBytes: ORDER_DOCUMENT_MAX_BYTES };

type File = { fileName: string; bytes: Buffer };
type Checked = File & { mimeType: string };

/**
 * The files kept with an order: up to five (PDF, Excel or CSV), added and removed until it ships, read by whoever
 * may see the order. Every change is audited on the order and told to the hub.
 */
export class OrderDocumentService {
  private readonly db: Db;
  private readonly recorder: ChangeRecorder;
  constructor(deps: Pick<ServiceDeps, 'db' | 'recorder'>) {
    this.db = deps.db;
    this.recorder = deps.recorder;
  }

  /** Each file's kind from its content; a wrong one is a 400 naming the file. Nothing is written. */
  check(files: File[]): Checked[] {
    if (files.length === 0) throw badRequest('Please choose a file', { files: 'Please choose a file' });
    return files.map((file) => {
      try {
        return { ...file, mimeType: checkUpload(file, ORDER_DOCUMENT_RULE).mimeType };
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        const message = `${safeFileName(file.fileName)}: ${err.message}`;
        throw badRequest(message, { [file.fileName]: message });
      }
    });
  }

  /** AddOrderDocuments: the files go with the order together or not at all. */
  async add(principal: Principal, upload: { fields: Record<string, string>; files: File[] }, actor: Actor) {
    const { orderId } = parseFields(orderDocumentFields, upload.fields);
    const files = this.check(upload.files);
    if (!(await orders.find(this.db, principal.scope, orderId))) throw notFound('Order');
    const after = await inTransaction(this.db, async (uow) => {
      await this.keep(uow, [orderId], files, actor);
      return this.changed(uow, actor, orderId, 'add-documents', { files: files.map((f) => safeFileName(f.fileName)) });
    });
    return { message: files.length === 1 ? 'Document added successfully' : `${files.length} documents added successfully`, data: after };
  }

  /**
   * Keeps checked files with orders, in the caller's transaction (one stored copy, linked to each order): refused
   * for an order that has shipped, and past five documents an order, naming the first file over.
   */
  async keep(uow: UnitOfWork, orderIds: number[], files: Checked[], actor: Actor) {
    for (const orderId of orderIds) await this.lockOpen(uow, orderId);
    for (const orderId of orderIds) {
      const held = await docs.count(uow.tx, orderId);
      if (held + files.length > MAX_ORDER_DOCUMENTS) {
        const first = files[Math.max(0, MAX_ORDER_DOCUMENTS - held)];
        const message = `${safeFileName(first.fileName)}: an order may hold at most ${MAX_ORDER_DOCUMENTS} documents (it has ${held})`;
        throw unprocessable(message, { [first.fileName]: message });
      }
    }
    for (const file of files) {
      const stored = await storeFile(uow.tx, { fileName: file.fileName, mimeType: file.mimeType, bytes: file.bytes, createdBy: actor.userId });
      await docs.insert(uow.tx, orderIds.map((orderId) => ({ order_id: orderId, file_id: stored.id, uploaded_by: actor.userId })));
    }
  }

  /** DeleteOrderDocument: the link goes, and the file with its last link. */
  async remove(principal: Principal, documentId: number, actor: Actor) {
    const doc = await docs.find(this.db, documentId);
    if (!doc || !(await orders.find(this.db, principal.scope, doc.order_id))) throw notFound('Document');
    const after = await inTransaction(this.db, async (uow) => {
      await this.lockOpen(uow, doc.order_id);
      const file = await readStoredFile(uow.tx, doc.file_id);
      await docs.delete(uow.tx, documentId);
      if (!(await docs.fileKept(uow.tx, doc.file_id))) await deleteStoredFile(uow.tx, doc.file_id);
      return this.changed(uow, actor, doc.order_id, 'delete-document', { file: file?.fileName ?? null });
    });
    return { message: 'Document deleted successfully', data: after };
  }

  /** A document's file, for whoever may see its order (another customer's is "not found"). */
  async file(principal: Principal, documentId: number) {
    const doc = await docs.find(this.db, documentId);
    if (!doc || !(await orders.find(this.db, principal.scope, doc.order_id))) throw notFound('Document');
    const file = await readStoredFile(this.db, doc.file_id);
    if (!file) throw notFound('Document');
    return file;
  }

  private async lockOpen(uow: UnitOfWork, orderId: number) {
    const row = await docs.lockOrder(uow.tx, orderId, new Date().toISOString());
    if (!row) throw notFound('Order');
    if (row.status === 'Shipped') throw conflict('This order has shipped; its documents can no longer change');
  }

  private async changed(uow: UnitOfWork, actor: Actor, orderId: number, action: string, detail: Record<string, unknown>) {
    const after = toSummary((await orders.find(uow.tx, Scope.everything, orderId))!);
    await this.recorder.record(uow, actor, {
      audit: { action, entity: 'sales_order', entityId: orderId, warehouseId: after.warehouseId, customerId: after.customerId, after: { ...after, ...detail } },
      events: { target: 'ReceiveOrderData', payload: { subEvent: 'UpdateOrder', payload: after, detail }, warehouseId: after.warehouseId, customerId: after.customerId },
    });
    return after;
  }
}
