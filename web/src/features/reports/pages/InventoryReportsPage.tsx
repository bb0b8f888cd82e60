import { ReportPage } from '../components/ReportPage';

/**
 * /InventoryReports on the report pattern: stock on hand (by SKU, location, lot, pallet or client), availability,
 * aging and stock as of a day — each with its totals, a chart where one helps, exports and saved views.
 */
export default function InventoryReportsPage() {
  return <ReportPage area="InventoryReport" reports={['stock-on-hand', 'availability', 'stock-aging', 'stock-as-of']} />;
}
