import { ReportPage } from '../../../features/reports/components/ReportPage';
import { ReceivingLists } from '../../../features/inbound/components/ReceivingLists';

/**
 * /InboundReports on the report pattern: receiving orders by status (open, receiving, received awaiting putaway),
 * receipts per day (today's among them), received against expected per supplier or client; the lists below.
 */
export default function InboundReportsPage() {
  return <ReportPage area="InboundReport" reports={['receiving-status', 'receipts-per-day', 'receipt-accuracy']} footer={<ReceivingLists />} />;
}
