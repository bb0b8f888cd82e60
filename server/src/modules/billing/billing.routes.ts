import { z } from 'zod';
import {
  BILLING_ROLES, addAccessorialInput, apiErrorSchema, billingAccount, billingRunResult, billingSummary, billingSummaryRequest, createBillingRunInput, creditNoteInput,
  field, invoiceAudit, invoiceAuditRequest, invoiceDetail, invoiceIdInput, invoiceIdQuery, invoiceListRequest, invoiceListResponse, invoiceSummary,
  lineSourcesRequest, lineSourcesResponse, manualLineInput, mutationResult, rateCardListRequest, rateCardListResponse, rateCardVersion, removeManualLineInput,
  saveBillingAccountInput, saveRateCardInput, snapshotRequest, snapshotResponse, unbilledRequest, unbilledResponse, STAFF_ROLES,
} from '@bolx/contracts';
import { actorOf, principalOf, type RoutePolicy } from '../../plugins/access.js';
import { authErrors, type RouteModule } from '../../http.js';

const tags = ['Billing'];
const BASE = '/Warehouse/Billing';
/** Reading invoices: billing staff, and a client account (its own customer's final invoices only). */
const read: RoutePolicy = { access: 'authenticated', module: { key: 'Billing', permission: 'read' }, scope: 'tenant' };
/** The 3PL's side (rate cards, drafts, accrual, snapshots): staff only. */
const staffRead: RoutePolicy = { ...read, roles: STAFF_ROLES };
/** Creating, running, adjusting and finalising: billing roles only. */
const write: RoutePolicy = { access: 'authenticated', roles: BILLING_ROLES, module: { key: 'Billing', permission: 'write' }, scope: 'tenant' };
const summaryRead: RoutePolicy = { access: 'authenticated', module: { key: 'BillingSummary', permission: 'read' }, scope: 'tenant' };
const auditRead: RoutePolicy = { access: 'authenticated', roles: STAFF_ROLES, module: { key: 'InvoiceAudit', permission: 'read' }, scope: 'tenant' };
const errors = { 409: apiErrorSchema, 422: apiErrorSchema, ...authErrors };
const file = z.any().describe('application/pdf or xlsx');

export const billingRoutes: RouteModule = (api, { billing, billingReports }) => {
  api.post(`${BASE}/GetBillingAccounts`, {
    schema: { tags, summary: 'Each client’s billing terms: currency, tax, payment terms', body: z.object({}).optional(), response: { 200: z.object({ items: z.array(billingAccount) }), ...authErrors } },
    config: { policy: staffRead },
  }, async (req) => ({ items: await billing.accounts(principalOf(req)) }));

  api.post(`${BASE}/SaveBillingAccount`, {
    schema: { tags, summary: 'Set a client’s currency (fixed once invoiced), tax rate and payment terms', body: saveBillingAccountInput, response: { 200: mutationResult(billingAccount), ...errors } },
    config: { policy: write },
  }, (req) => billing.saveAccount(principalOf(req), req.body, actorOf(req)));

  api.post(`${BASE}/GetRateCards`, {
    schema: { tags, summary: 'Rate card versions per client and warehouse, with their rates and whether an invoice used them', body: rateCardListRequest, response: { 200: rateCardListResponse, ...authErrors } },
    config: { policy: staffRead },
  }, (req) => billing.rateCards(principalOf(req), req.body));

  api.post(`${BASE}/SaveRateCard`, {
    schema: {
      tags, body: saveRateCardInput, response: { 200: mutationResult(rateCardVersion), ...errors },
      summary: 'A new rate card version from a day (the open version before it ends the day before), or an edit of a version not charged at yet; overlaps are refused',
    },
    config: { policy: write },
  }, (req) => billing.saveRateCard(principalOf(req), req.body, actorOf(req)));

  api.post(`${BASE}/AddAccessorial`, {
    schema: {
      tags, body: addAccessorialInput, response: { 200: mutationResult(z.object({ chargeId: z.number().int(), amountMinor: z.number().int() })), ...errors },
      summary: 'Enter an accessorial charge or labour minutes for a day: billed by the run whose period holds the day',
    },
    config: { policy: write },
  }, (req) => billing.addAccessorial(principalOf(req), req.body, actorOf(req)));

  api.post(`${BASE}/CreateBillingRun`, {
    schema: {
      tags, body: createBillingRunInput, response: { 202: mutationResult(billingRunResult), ...errors },
      summary: 'Bill a client for a period: a draft invoice, filled by a background job (progress over the hub); refused for a period already final',
    },
    config: { policy: write },
  }, async (req, reply) => {
    const answer = await billing.createRun(principalOf(req), req.body, actorOf(req));
    void reply.code(202);
    return answer;
  });

  api.post(`${BASE}/RerunInvoice`, {
    schema: { tags, summary: 'Run a draft again (its charges made anew; manual lines kept)', body: invoiceIdInput, response: { 202: mutationResult(billingRunResult), ...errors } },
    config: { policy: write },
  }, async (req, reply) => {
    const answer = await billing.rerun(principalOf(req), req.body.invoiceId, actorOf(req));
    void reply.code(202);
    return answer;
  });

  api.post(`${BASE}/AddManualLine`, {
    schema: { tags, summary: 'Adjust a draft with a manual line (a reason is required)', body: manualLineInput, response: { 200: mutationResult(invoiceDetail), ...errors } },
    config: { policy: write },
  }, (req) => billing.addManualLine(principalOf(req), req.body, actorOf(req)));

  api.post(`${BASE}/RemoveManualLine`, {
    schema: { tags, summary: 'Remove a manual line from a draft', body: removeManualLineInput, response: { 200: mutationResult(invoiceDetail), ...errors } },
    config: { policy: write },
  }, (req) => billing.removeManualLine(principalOf(req), req.body, actorOf(req)));

  api.post(`${BASE}/FinalizeInvoice`, {
    schema: { tags, summary: 'Finalise a draft: its gap-free number (per warehouse) and locked', body: invoiceIdInput, response: { 200: mutationResult(invoiceSummary), ...errors } },
    config: { policy: write },
  }, (req) => billing.finalize(principalOf(req), req.body.invoiceId, actorOf(req)));

  api.post(`${BASE}/DiscardInvoice`, {
    schema: { tags, summary: 'Discard a draft: its charges are unbilled again', body: invoiceIdInput, response: { 200: mutationResult(invoiceSummary), ...errors } },
    config: { policy: write },
  }, (req) => billing.discard(principalOf(req), req.body.invoiceId, actorOf(req)));

  api.post(`${BASE}/CreateCreditNote`, {
    schema: { tags, summary: 'Credit lines of a final invoice (all when none named): a final credit note with its own gap-free number', body: creditNoteInput, response: { 200: mutationResult(invoiceDetail), ...errors } },
    config: { policy: write },
  }, (req) => billing.creditNote(principalOf(req), req.body, actorOf(req)));

  api.post(`${BASE}/GetInvoices`, {
    schema: { tags, summary: 'Invoices and credit notes (a client account: its own final ones)', body: invoiceListRequest, response: { 200: invoiceListResponse, ...authErrors } },
    config: { policy: read },
  }, (req) => billing.list(principalOf(req), req.body));

  api.post(`${BASE}/GetInvoice`, {
    schema: { tags, summary: 'An invoice with its lines', body: invoiceIdInput, response: { 200: invoiceDetail, ...authErrors } },
    config: { policy: read },
  }, (req) => billing.detail(principalOf(req), req.body.invoiceId));

  api.post(`${BASE}/GetLineSources`, {
    schema: { tags, summary: 'The charges behind an invoice line, each with its source (ledger row, event, snapshot, document)', body: lineSourcesRequest, response: { 200: lineSourcesResponse, ...authErrors } },
    config: { policy: read },
  }, (req) => billing.lineSources(principalOf(req), req.body));

  api.get(`${BASE}/InvoicePdf`, {
    schema: { tags, summary: 'The invoice as a PDF', querystring: invoiceIdQuery, response: { 200: file, ...authErrors } },
    config: { policy: read },
  }, async (req, reply) => {
    const { name, body } = await billingReports.pdf(principalOf(req), req.query.invoiceId);
    return reply.type('application/pdf').header('content-disposition', `inline; filename="${name}"`).send(body);
  });

  api.get(`${BASE}/InvoiceExcel`, {
    schema: { tags, summary: 'The invoice as a workbook: a summary sheet and every line’s sources', querystring: invoiceIdQuery, response: { 200: file, ...authErrors } },
    config: { policy: read },
  }, async (req, reply) => {
    const { name, body } = await billingReports.excel(principalOf(req), req.query.invoiceId);
    return reply.type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet').header('content-disposition', `attachment; filename="${name}"`).send(body);
  });

  api.post(`${BASE}/GetUnbilled`, {
    schema: { tags, summary: 'The live unbilled accrual: what each client’s invoice for this month would say today', body: unbilledRequest, response: { 200: unbilledResponse, ...authErrors } },
    config: { policy: staffRead },
  }, (req) => billingReports.unbilled(principalOf(req), req.body));

  api.post(`${BASE}/GetBillingSummary`, {
    schema: { tags, summary: 'Billed per charge type for a period, against the previous period and the same period last year, and per month', body: billingSummaryRequest, response: { 200: billingSummary, ...authErrors } },
    config: { policy: summaryRead },
  }, (req) => billingReports.summary(principalOf(req), req.body));

  api.post(`${BASE}/GetInvoiceAudit`, {
    schema: { tags, summary: 'An invoice traced: differences against the previous invoice by charge type, and anomalies', body: invoiceAuditRequest, response: { 200: invoiceAudit, ...authErrors } },
    config: { policy: auditRead },
  }, (req) => billingReports.audit(principalOf(req), req.body));

  api.post(`${BASE}/GetSnapshots`, {
    schema: { tags, summary: 'Daily storage snapshots of a warehouse (live or rebuilt from the ledger)', body: snapshotRequest, response: { 200: snapshotResponse, ...authErrors } },
    config: { policy: staffRead },
  }, async (req) => {
    const p = principalOf(req);
    p.scope.assert({ warehouseId: req.body.warehouseId, customerId: req.body.customerId });
    const items = await billing.snapshots.list(billing.db, req.body);
    return { items: items.filter((s) => p.scope.canSeeCustomer(s.customerId)) };
  });

  api.post(`${BASE}/TakeSnapshots`, {
    schema: {
      tags, summary: 'Take a warehouse’s missing snapshots now (the day just ended live, missed days rebuilt from the ledger)',
      body: z.object({ warehouseId: field.id() }), response: { 200: mutationResult(z.object({ live: z.number().int(), rebuilt: z.number().int() })), ...errors },
    },
    config: { policy: write },
  }, async (req) => {
    principalOf(req).scope.assert({ warehouseId: req.body.warehouseId });
    const data = await billing.snapshots.catchUp(req.body.warehouseId);
    return { message: `${data.live + data.rebuilt} snapshot days taken`, data };
  });
};
