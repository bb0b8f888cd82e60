import { ReportPage } from '../components/ReportPage';

/** /ProductivityReport: per user from the floor's activity log, against the engineered standards; a trend. */
export default function ProductivityReportPage() {
  return <ReportPage area="ProductivityReport" reports={['productivity', 'productivity-trend']} />;
}
