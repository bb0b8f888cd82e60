import { ReportPage } from '../components/ReportPage';

/** /OrderReports: orders per day, fulfilment time, on-time shipping, lines/units/backorders per order. */
export default function OrderReportsPage() {
  return <ReportPage area="OrderReport" reports={['orders-per-day', 'fulfilment-time', 'on-time-shipping', 'order-profile']} />;
}
