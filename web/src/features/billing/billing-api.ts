import type { z } from 'zod';
import type {
  addAccessorialInput, billingAccount, billingSummary, createBillingRunInput, creditNoteInput, invoiceAudit, invoiceDetail, invoiceSummary,
  lineSourcesResponse, manualLineInput, rateCardVersion, saveRateCardInput, unbilledResponse, JobView,
} from '@bolx/contracts';
import { baseApi } from '../../lib/api/base-api';
import { liveAll, reloadOn } from '../../lib/hub/live-list';
import type { ListPage, ListRequest } from '../../components/data-table/list-args';
import './messages';

export type Invoice = z.infer<typeof invoiceSummary>;
export type InvoiceDetail = z.infer<typeof invoiceDetail>;
export type RateCardVersion = z.infer<typeof rateCardVersion>;
export type BillingAccount = z.infer<typeof billingAccount>;
export type BillingSummary = z.infer<typeof billingSummary>;
export type InvoiceAudit = z.infer<typeof invoiceAudit>;
type Answer<T> = { message: string; data: T };
const post = (url: string) => <B,>(body: B) => ({ url, method: 'POST', body }) as const;

const api = baseApi.enhanceEndpoints({ addTagTypes: ['Invoice', 'RateCard', 'BillingAccount'] });
/** Invoice lists follow the billing jobs (a run ending fills its draft). */
const live = liveAll(reloadOn('ReceiveJobData'));

export const billingApi = api.injectEndpoints({
  endpoints: (build) => ({
    getInvoices: build.query<ListPage<Invoice>, ListRequest>({ query: post('Warehouse/Billing/GetInvoices'), providesTags: ['Invoice'], onCacheEntryAdded: live }),
    getInvoice: build.query<InvoiceDetail, { invoiceId: number }>({ query: post('Warehouse/Billing/GetInvoice'), providesTags: ['Invoice'], onCacheEntryAdded: live }),
    getLineSources: build.query<z.infer<typeof lineSourcesResponse>, { invoiceId: number; lineId: number }>({ query: post('Warehouse/Billing/GetLineSources'), providesTags: ['Invoice'] }),
    getRateCards: build.query<ListPage<RateCardVersion>, ListRequest>({ query: post('Warehouse/Billing/GetRateCards'), providesTags: ['RateCard'] }),
    getBillingAccounts: build.query<{ items: BillingAccount[] }, void>({ query: () => ({ url: 'Warehouse/Billing/GetBillingAccounts', method: 'POST', body: {} }), providesTags: ['BillingAccount'] }),
    getUnbilled: build.query<z.infer<typeof unbilledResponse>, { warehouseId?: number; customerId?: number }>({ query: post('Warehouse/Billing/GetUnbilled'), providesTags: ['Invoice', 'RateCard'] }),
    getBillingSummary: build.query<BillingSummary, { customerId: number; warehouseId?: number; periodFrom: string; periodTo: string }>({ query: post('Warehouse/Billing/GetBillingSummary'), providesTags: ['Invoice'] }),
    getInvoiceAudit: build.query<InvoiceAudit, { invoiceId: number; swingPercent?: number }>({ query: post('Warehouse/Billing/GetInvoiceAudit'), providesTags: ['Invoice'] }),
    saveBillingAccount: build.mutation<Answer<BillingAccount>, BillingAccount>({ query: post('Warehouse/Billing/SaveBillingAccount'), invalidatesTags: ['BillingAccount', 'RateCard'] }),
    saveRateCard: build.mutation<Answer<RateCardVersion>, z.input<typeof saveRateCardInput>>({ query: post('Warehouse/Billing/SaveRateCard'), invalidatesTags: ['RateCard'] }),
    addAccessorial: build.mutation<Answer<{ chargeId: number }>, z.input<typeof addAccessorialInput>>({ query: post('Warehouse/Billing/AddAccessorial'), invalidatesTags: ['Invoice'] }),
    createBillingRun: build.mutation<Answer<{ invoice: Invoice; job: JobView }>, z.input<typeof createBillingRunInput>>({ query: post('Warehouse/Billing/CreateBillingRun'), invalidatesTags: ['Invoice'] }),
    rerunInvoice: build.mutation<Answer<{ invoice: Invoice; job: JobView }>, { invoiceId: number }>({ query: post('Warehouse/Billing/RerunInvoice'), invalidatesTags: ['Invoice'] }),
    addManualLine: build.mutation<Answer<InvoiceDetail>, z.input<typeof manualLineInput>>({ query: post('Warehouse/Billing/AddManualLine'), invalidatesTags: ['Invoice'] }),
    removeManualLine: build.mutation<Answer<InvoiceDetail>, { invoiceId: number; lineId: number }>({ query: post('Warehouse/Billing/RemoveManualLine'), invalidatesTags: ['Invoice'] }),
    finalizeInvoice: build.mutation<Answer<Invoice>, { invoiceId: number }>({ query: post('Warehouse/Billing/FinalizeInvoice'), invalidatesTags: ['Invoice', 'RateCard'] }),
    discardInvoice: build.mutation<Answer<Invoice>, { invoiceId: number }>({ query: post('Warehouse/Billing/DiscardInvoice'), invalidatesTags: ['Invoice'] }),
    createCreditNote: build.mutation<Answer<InvoiceDetail>, z.input<typeof creditNoteInput>>({ query: post('Warehouse/Billing/CreateCreditNote'), invalidatesTags: ['Invoice'] }),
  }),
});

export const {
  useGetInvoicesQuery, useGetInvoiceQuery, useGetLineSourcesQuery, useGetRateCardsQuery, useGetBillingAccountsQuery, useGetUnbilledQuery,
  useGetBillingSummaryQuery, useGetInvoiceAuditQuery, useSaveBillingAccountMutation, useSaveRateCardMutation, useAddAccessorialMutation,
  useCreateBillingRunMutation, useRerunInvoiceMutation, useAddManualLineMutation, useRemoveManualLineMutation, useFinalizeInvoiceMutation,
  useDiscardInvoiceMutation, useCreateCreditNoteMutation,
} = billingApi;
