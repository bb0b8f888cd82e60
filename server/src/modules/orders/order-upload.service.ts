import {
  createOrderInput, MAX_ORDER_UPLOAD_ROWS, ORDER_UPLOAD_COLUMNS, ORDER_UPLOAD_MAX_BYTES, uploadOrdersFields,
  type CreateOrderInput, type OrderUploadColumn, type UploadOrdersResult,
} from '@bolx/contracts';
import type { Db } from '../../db/schema.js';
import type { Actor } from '../../platform/actor.js';
import { AppError, badRequest, unprocessable } from '../../platform/errors.js';
import { toXlsx, type ExcelColumn } from '../../platform/excel.js';
import { parseFields, type ReceivedUpload } from '../../platform/files.js';
import { count } from '../../platform/plural.js';
import type { Principal } from '../../platform/principal.js';
import type { ServiceDeps } from '../../platform/service-deps.js';
import { parseDay, readSheet, rowErrorDetails, rowErrorSummary, type RowError, type SheetRow } from '../../platform/sheet.js';
import { inTransaction } from '../../platform/unit-of-work.js';
import type { OrderDocumentService } from './order-documents.service.js';
import { orderRepository as repo } from './orders.repository.js';
import type { OrderService } from './orders.service.js';

type Column = OrderUploadColumn;
type Row = SheetRow<Column>;

/** The order's field each sheet column fills (and so the column an intake refusal of that field points at). */
const HEADER_FIELDS: Partial<Record<keyof CreateOrderInput, Column>> = {
  orderType: 'Order Type', orderDate: 'Order Date', referenceNumber: 'Reference Number', requestedShipDate: 'Requested Ship Date', priority: 'Priority',
  shipToName: 'Ship To Name', shipToAddress1: 'Ship To Address 1', shipToAddress2: 'Ship To Address 2', shipToCity: 'Ship To City',
  shipToState: 'Ship To State', shipToZip: 'Ship To Zip', shipToCountry: 'Ship To Country', shipToPhone: 'Ship To Phone',
  shipToEmail: 'Ship To Email', carrierService: 'Carrier Service', notes: 'Notes', toWarehouseId: 'To Warehouse', warehouseId: 'Reference Number',
};
const LINE_FIELDS: Record<string, Column> = { skuId: 'SKU', quantity: 'Quantity', packageId: 'Package', lot: 'Lot' };

/** One order of the sheet: its input and the sheet row of its header and of each line. */
interface SheetOrder { input: CreateOrderInput; headerRow: number; lineRows: number[] }

/**
 * The Add Data panel's Orders card: a CSV or XLSX sheet of order lines, rows grouped into orders by Reference
 * Number (header fields from each order's first row, or the form's). Every row is checked first; any bad row
 * answers 422 with every row's errors and writes nothing. Then every order goes through the one intake
 * (OrderService.intakeWithin, source 'upload') in ONE transaction: an order refused there (a kit without
 * components, a warehouse that does not serve the client…) rolls back the whole file, and its refusal is
 * reported on its rows. A reference the client already used answers its order (a duplicate, not an error).
 */
export class OrderUploadService {
  private readonly db: Db;
  constructor(deps: Pick<ServiceDeps, 'db'>, private readonly orders: OrderService, private readonly documents: OrderDocumentService) {
    this.db = deps.db;
  }

  async upload(principal: Principal, upload: ReceivedUpload & { documents?: { fileName: string; bytes: Buffer }[] }, actor: Actor) {
    const fields = parseFields(uploadOrdersFields, upload.fields);
    if (!upload.file) throw badRequest('Please choose a file', { file: 'Please choose a file' });
    principal.scope.assert({ warehouseId: fields.warehouseId, customerId: fields.customerId });
    const documents = upload.documents?.length ? this.documents.check(upload.documents) : [];
    const { rows } = await readSheet<Column>(upload.file, {
      columns: ORDER_UPLOAD_COLUMNS, required: ['SKU', 'Quantity'], maxRows: MAX_ORDER_UPLOAD_ROWS, noun: 'order lines', maxBytes: ORDER_UPLOAD_MAX_BYTES,
    });
    const { orders, errors } = await this.read(rows, fields);
    if (errors.length) throw unprocessable(rowErrorSummary(errors, 'imported'), rowErrorDetails(errors));

    const taken = await inTransaction(this.db, async (uow) => {
      const out: UploadOrdersResult['orders'] = [];
      const refused: RowError[] = [];
      for (const o of orders) {
        try {
          const order = await this.orders.intakeWithin(uow, principal, o.input, actor, 'upload');
          out.push({ orderId: order.orderId, soNumber: order.soNumber, referenceNumber: order.referenceNumber, lineCount: order.lineCount, duplicate: order.duplicate, receivingOrderNumber: order.receivingOrderNumber });
        } catch (err) {
          if (!(err instanceof AppError) || err.status >= 500 || err.status === 403) throw err;
          refused.push(...refusalRows(err, o));
        }
      }
      if (refused.length) throw unprocessable(rowErrorSummary(refused, 'imported'), rowErrorDetails(refused));
      const fresh = out.filter((o) => !o.duplicate).map((o) => o.orderId);
      if (documents.length && fresh.length) await this.documents.keep(uow, fresh, documents, actor);
      return out;
    });
    const created = taken.filter((o) => !o.duplicate).length;
    const duplicates = taken.length - created;
    const message = `${count(created, 'order')} imported` + (duplicates ? `; ${count(duplicates, 'reference')} already taken in (nothing new for ${duplicates === 1 ? 'it' : 'them'})` : '');
    return { message, data: { fileName: upload.file.fileName, created, duplicates, orders: taken } };
  }

  /** The sheet's orders, or every row's errors: each field as the contract bounds it, SKUs, packages and lots as the client's. */
  private async read(rows: Row[], form: ReturnType<typeof uploadOrdersFields.parse>) {
    const errors: RowError[] = [];
    const fail = (row: number, column: Column, message: string) => errors.push({ row, column, message });
    const skus = new Map((await repo.skusByCodes(this.db, form.customerId, rows.map((r) => r.cells.SKU ?? '').filter(Boolean))).map((s) => [s.code, s]));
    const packages = await repo.packages(this.db, form.customerId, [...new Set([...skus.values()].map((s) => Number(s.id)))]);
    const warehouses = new Map((await repo.warehousesByCode(this.db, rows.map((r) => r.cells['To Warehouse'] ?? '').filter(Boolean))).map((w) => [w.code, Number(w.id)]));

    const groups = new Map<string, Row[]>();
    for (const r of rows) {
      const reference = r.cells['Reference Number'] || form.referenceNumber || '';
      if (!reference) fail(r.row, 'Reference Number', 'Please enter reference number!');
      else groups.set(reference, [...(groups.get(reference) ?? []), r]);
    }

    const orders: SheetOrder[] = [];
    for (const [referenceNumber, group] of groups) {
      const head = group[0];
      const h = (c: Column) => head.cells[c] || undefined;
      const before = errors.length;
      const day = (c: Column, fallback?: string) => {
        const text = h(c) ?? fallback;
        if (!text) return undefined;
        const parsed = parseDay(text);
        if (!parsed) fail(head.row, c, `'${text.slice(0, 32)}' is not a date (use YYYY-MM-DD)`);
        return parsed ?? undefined;
      };
      const orderDate = day('Order Date', form.orderDate);
      if (!orderDate && errors.length === before) fail(head.row, 'Order Date', 'Please enter order date!');
      const priorityText = h('Priority');
      const toCode = h('To Warehouse');
      const orderType = h('Order Type') ?? form.orderType;
      const toWarehouseId = toCode ? warehouses.get(toCode.toUpperCase()) : orderType === 'Transfer' ? form.toWarehouseId : undefined;
      if (toCode && !toWarehouseId) fail(head.row, 'To Warehouse', `No warehouse has the code '${toCode.slice(0, 32)}'`);
      const lines = group.map((r) => {
        const code = r.cells.SKU ?? '';
        const sku = code ? skus.get(code.toUpperCase()) : undefined;
        if (!code) fail(r.row, 'SKU', 'Please select a SKU!');
        else if (!sku) fail(r.row, 'SKU', `No SKU of this client has the code '${code.slice(0, 64)}'`);
        const lot = r.cells.Lot || undefined;
        if (lot && sku && Number(sku.is_lot_tracked) !== 1) fail(r.row, 'Lot', `SKU ${sku.sku_code} does not track lots`);
        const packageText = r.cells.Package;
        let packageId: number | undefined;
        if (packageText && sku) {
          const wanted = packageText.toLowerCase();
          const level = packages.find((p) => Number(p.sku_id) === Number(sku.id) && (p.package_name.toLowerCase() === wanted || p.package_type.toLowerCase() === wanted));
          if (!level) fail(r.row, 'Package', `SKU ${sku.sku_code} has no package '${packageText.slice(0, 64)}'`);
          packageId = level ? Number(level.id) : undefined;
        }
        return { skuId: sku ? Number(sku.id) : 0, quantity: Number(r.cells.Quantity || Number.NaN), packageId, lot };
      });
      const input = {
        warehouseId: form.warehouseId, customerId: form.customerId, orderType, referenceNumber, orderDate,
        requestedShipDate: day('Requested Ship Date'), priority: priorityText === undefined ? undefined : Number(priorityText),
        shipToName: h('Ship To Name'), shipToAddress1: h('Ship To Address 1'), shipToAddress2: h('Ship To Address 2'), shipToCity: h('Ship To City'),
        shipToState: h('Ship To State'), shipToZip: h('Ship To Zip'), shipToCountry: h('Ship To Country'), shipToPhone: h('Ship To Phone'),
        shipToEmail: h('Ship To Email'), carrierService: h('Carrier Service'), notes: h('Notes'), toWarehouseId, lines,
      };
      const sheetOrder = { headerRow: head.row, lineRows: group.map((r) => r.row) };
      if (errors.length !== before) continue;
      // The contract's own bounds (lengths, e-mail, priority, quantities), reported on the sheet's rows.
      const parsed = createOrderInput.safeParse(input);
      if (!parsed.success) {
        for (const issue of parsed.error.issues) {
          const at = locate(issue.path.map(String), sheetOrder);
          if (!errors.some((e) => e.row === at.row && e.column === at.column)) fail(at.row, at.column, issue.message);
        }
        continue;
      }
      orders.push({ input: parsed.data, ...sheetOrder });
    }
    return { orders, errors };
  }

  /** The sample template: the columns, two lines of one order and one of another, as a 3PL sends them. */
  template() {
    const base = {
      'Order Type': 'Sales', 'Order Date': new Date().toISOString().slice(0, 10), 'Requested Ship Date': '', Priority: '5', 'Ship To Name': 'Ada Lovelace',
      'Ship To Address 1': '1 Analytical Way', 'Ship To Address 2': '', 'Ship To City': 'London', 'Ship To State': '', 'Ship To Zip': 'N1 9GU',
      'Ship To Country': 'GB', 'Ship To Phone': '+44 20 0000 0000', 'Ship To Email': 'ada@example.com', 'Carrier Service': 'Ground', Notes: '', 'To Warehouse': '',
      Package: '', Lot: '',
    };
    const rows: Record<Column, string>[] = [
      { ...base, 'Reference Number': 'PO-1001', SKU: 'SKU-CODE', Quantity: '10' },
      { ...base, 'Reference Number': 'PO-1001', SKU: 'OTHER-SKU', Quantity: '24', Package: 'case' },
      { ...base, 'Reference Number': 'PO-1002', 'Ship To Name': 'Grace Hopper', 'Ship To City': 'Arlington', 'Ship To Country': 'US', SKU: 'SKU-CODE', Quantity: '1', Lot: '' },
    ];
    const readMe = [
      'One row per order line. Rows with the same Reference Number are one order; its first row gives the order’s header fields.',
      'Blank Order Type, Order Date or Reference Number take the values chosen on the upload form.',
      'Order Type: Sales, Transfer or Purchase. A Transfer names its destination warehouse code in To Warehouse; it and a Purchase order',
      'make an expected receiving order (at the destination, or in this warehouse) with the SO number as its reference.',
      'SKU: the client’s SKU code. Quantity: in units. Package (optional): a package level of the SKU by name or type; the quantity must be whole packages.',
      'Lot (optional): only for SKUs that track lots. Dates: YYYY-MM-DD or M/D/YYYY. Priority: 1 (most urgent) to 9, 5 when blank.',
      'If any row has an error, nothing is imported and every error is listed with its row. A Reference Number already used answers its order.',
    ];
    return toXlsx('Orders', ORDER_UPLOAD_COLUMNS.map((c): ExcelColumn<Record<Column, string>> => ({ header: c, value: (r) => r[c], width: 20 })), rows, readMe);
  }
}

/** Where a contract path (`lines.2.quantity`, `shipToEmail`) points in the sheet: the line's row, or the order's first row. */
function locate(path: string[], o: { headerRow: number; lineRows: number[] }): { row: number; column: Column } {
  if (path[0] === 'lines' && path.length >= 3) return { row: o.lineRows[Number(path[1])] ?? o.headerRow, column: LINE_FIELDS[path[2]] ?? 'SKU' };
  return { row: o.headerRow, column: HEADER_FIELDS[path[0] as keyof CreateOrderInput] ?? 'Reference Number' };
}

/** An intake refusal (its details keyed by field) as the sheet's row errors. */
function refusalRows(err: AppError, o: SheetOrder): RowError[] {
  const details = typeof err.details === 'object' && err.details ? Object.entries(err.details as Record<string, string>) : [];
  if (details.length === 0) return [{ row: o.headerRow, column: 'Reference Number', message: err.message }];
  return details.map(([key, message]) => ({ ...locate(key.split('.'), o), message }));
}
