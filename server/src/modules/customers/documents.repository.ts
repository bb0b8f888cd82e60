import type { Updateable } from 'kysely';
import type { Executor } from '../../db/schema.js';
import type { CustomerDocumentTable } from '../../db/tables/customers.js';

export const documentRepository = {
  types(db: Executor) {
    return db.selectFrom('document_type').select(['id', 'name']).where('is_active', '=', 1).orderBy('sort').execute();
  },

  findType(db: Executor, id: number) {
    return db.selectFrom('document_type').select(['id', 'name']).where('id', '=', id).where('is_active', '=', 1).executeTakeFirst();
  },

  /** Documents with their type and file facts, never the bytes. */
  listQuery(db: Executor) {
    return db.selectFrom('customer_document as d')
      .innerJoin('document_type as t', 't.id', 'd.document_type_id')
      .innerJoin('stored_file as f', 'f.id', 'd.file_id')
      .select(['d.id', 'd.customer_id', 'd.document_type_id', 'd.file_id', 'd.notes', 'd.uploaded_by', 'd.created_at', 'd.updated_at',
        't.name as type_name', 'f.file_name', 'f.mime_type', 'f.size_bytes', 'f.sha256']);
  },

  ofCustomer(db: Executor, customerId: number) {
    return this.listQuery(db).where('d.customer_id', '=', customerId).orderBy('d.created_at', 'desc').orderBy('d.id', 'desc').execute();
  },

  find(db: Executor, id: number) {
    return this.listQuery(db).where('d.id', '=', id).executeTakeFirst();
  },

  async insert(db: Executor, values: { customer_id: number; document_type_id: number; file_id: number; notes: string | null; uploaded_by: string | null; created_at: string; updated_at: string }) {
    return (await db.insertInto('customer_document').values(values).returning('id').executeTakeFirstOrThrow()).id;
  },

  async update(db: Executor, id: number, values: Updateable<CustomerDocumentTable>) {
    await db.updateTable('customer_document').set(values).where('id', '=', id).execute();
  },
};
