import { z } from 'zod';
import {
  apiErrorSchema, applyAbcInput, queuedJobResult, reportJobFileQuery, reportSubscription, reportSubscriptionIdInput, runReportJobInput, subscribeReportInput, applyAbcResult, mutationResult, REPORT_AREAS, reportDownloadRequest, reportRequest, reportResult, reportViewIdInput, reportViewsQuery, saveReportViewInput,
  savedReportView, type ReportArea,
} from '@bolx/contracts';
import { actorOf, principalOf } from '../../plugins/access.js';
import { authErrors, type RouteModule } from '../../http.js';

const errors = { ...authErrors, 409: apiErrorSchema, 422: apiErrorSchema };

/** Each report screen: GetReport and DownloadReport under its own path, granted by its module. */
export const reportRoutes: RouteModule = (api, { reports, reportJobs }) => {
  const tags = ['Reports'];
  for (const area of Object.keys(REPORT_AREAS) as ReportArea[]) {
    const { module, title } = REPORT_AREAS[area];
    const policy = { access: 'authenticated' as const, module: { key: module, permission: 'read' as const }, scope: 'tenant' as const };
    api.post(`/Warehouse/${area}/GetReport`, {
      schema: { tags, summary: `${title}: one report with its filters — columns, rows, totals and chart`, body: reportRequest, response: { 200: reportResult, ...errors } },
      config: { policy },
    }, (req) => reports.run(principalOf(req), area, req.body.report, req.body.filters));
    api.post(`/Warehouse/${area}/DownloadReport`, {
      schema: { tags, summary: `${title}: one report as Excel, CSV or PDF`, body: reportDownloadRequest, response: { 200: z.any().describe('xlsx, csv or pdf file'), ...errors } },
      config: { policy },
    }, async (req, reply) => {
      const file = await reports.download(principalOf(req), area, req.body);
      return reply.type(file.type).header('content-disposition', `attachment; filename="${file.file}"`).send(file.body);
    });
    api.post(`/Warehouse/${area}/RunReportJob`, {
      schema: { tags, summary: `${title}: one report run as a background job (a range past the on-screen limit); progress over the hub, the export kept for download`, body: runReportJobInput, response: { 202: mutationResult(queuedJobResult), ...errors } },
      config: { policy },
    }, async (req, reply) => {
      const queued = await reportJobs.queue(principalOf(req), area, req.body);
      return reply.code(202).send(queued);
    });
  }

  const own = { access: 'authenticated' as const, scope: 'tenant' as const };
  api.get('/Warehouse/Report/DownloadReportJob', {
    schema: { tags, summary: 'The export a report job made (its owner only), once it succeeded', querystring: reportJobFileQuery, response: { 200: z.any().describe('xlsx, csv or pdf file'), ...errors } },
    config: { policy: own },
  }, async (req, reply) => {
    const file = await reportJobs.file(principalOf(req), req.query.jobId);
    return reply.type(file.mimeType).header('content-disposition', `attachment; filename="${file.fileName}"`).send(file.bytes);
  });
  api.get('/Warehouse/Report/GetReportSubscriptions', {
    schema: { tags, summary: 'The caller’s scheduled reports', response: { 200: z.array(reportSubscription), ...errors } },
    config: { policy: own },
  }, (req) => reportJobs.subscriptions(principalOf(req)));
  api.post('/Warehouse/Report/SubscribeReport', {
    schema: { tags, summary: 'E-mail a report with its filters daily or weekly, as Excel or PDF (only a report the caller may read)', body: subscribeReportInput, response: { 200: mutationResult(reportSubscription), ...errors } },
    config: { policy: own },
  }, (req) => reportJobs.subscribe(principalOf(req), req.body));
  api.post('/Warehouse/Report/CancelReportSubscription', {
    schema: { tags, summary: 'Cancel one of the caller’s scheduled reports', body: reportSubscriptionIdInput, response: { 200: mutationResult(z.object({ subscriptionId: z.number() })), ...errors } },
    config: { policy: own },
  }, (req) => reportJobs.unsubscribe(principalOf(req), req.body.subscriptionId));

  api.post('/Warehouse/OtherReport/ApplyAbcClasses', {
    schema: { tags, summary: 'Store the SKU velocity report’s ABC classes on the SKUs (cycle counts select by them)', body: applyAbcInput, response: { 200: mutationResult(applyAbcResult), ...errors } },
    config: { policy: { access: 'authenticated', module: { key: REPORT_AREAS.OtherReport.module, permission: 'write' }, scope: 'tenant' } },
  }, (req) => reports.applyAbc(principalOf(req), req.body.filters, actorOf(req)));

  api.get('/Warehouse/Report/GetReportViews', {
    schema: { tags, summary: 'The caller’s saved views of a report', querystring: reportViewsQuery, response: { 200: z.array(savedReportView), ...errors } },
    config: { policy: own },
  }, (req) => reports.views(principalOf(req), req.query.report));
  api.post('/Warehouse/Report/SaveReportView', {
    schema: { tags, summary: 'Save (or update) a named view of a report’s filters', body: saveReportViewInput, response: { 200: mutationResult(savedReportView), ...errors } },
    config: { policy: own },
  }, (req) => reports.saveView(principalOf(req), req.body, actorOf(req)));
  api.post('/Warehouse/Report/DeleteReportView', {
    schema: { tags, summary: 'Delete one of the caller’s saved views', body: reportViewIdInput, response: { 200: mutationResult(z.object({ viewId: z.number() })), ...errors } },
    config: { policy: own },
  }, (req) => reports.deleteView(principalOf(req), req.body.viewId));
};
