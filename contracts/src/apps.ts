/**
 * The catalogue of apps and their nested modules (the spec's menu areas). The server seeds it and assigns
 * modules to users from it; the web builds its sidebar from what GetUserModules returns, which is a
 * per-user slice of this tree. `url` is the web route without its leading slash.
 */
export interface ModuleDef {
  key: string;
  name: string;
  url?: string;
  children?: ModuleDef[];
}
export interface AppDef {
  id: number;
  key: 'WMS' | 'FREIGHT' | 'SERVICE';
  name: string;
  description: string;
  modules: ModuleDef[];
}

const leaf = (key: string, name: string, url = key): ModuleDef => ({ key, name, url });

export const APPS: AppDef[] = [
  {
    id: 1,
    key: 'WMS',
    name: 'Warehouse Management',
    description: 'Receive, store, count, pick, pack and ship client stock',
    modules: [
      leaf('Dashboard', 'Dashboard'),
      {
        key: 'Admin', name: 'Admin',
        children: [leaf('Warehouse', 'Warehouse'), leaf('User', 'User'), leaf('Customer', 'Client Management', 'Customer')],
      },
      {
        key: 'Catalog', name: 'SKU Management',
        children: [leaf('SKU', 'SKU'), leaf('Dimensions', 'Package Dimensions', 'Dimensions')],
      },
      {
        key: 'LocationGroup', name: 'Location',
        children: [
          leaf('Location', 'Locations', 'Location'),
          leaf('CreateLocation', 'Create Location'),
          leaf('LocationUpload', 'Location Upload'),
          leaf('OtherLocations', 'Other Locations'),
          leaf('PrintLocations', 'Print Locations'),
          leaf('QRCode', 'QR Code'),
        ],
      },
      {
        key: 'Inbound', name: 'Inbound',
        children: [
          leaf('InBound', 'Receiving Orders', 'InBound'),
          leaf('ROReport', 'RO Report'),
          leaf('ROReportDetails', 'RO Report Details'),
          leaf('ROInward', 'RO Inward'),
        ],
      },
      {
        key: 'Inventory', name: 'Inventory',
        children: [
          leaf('Move', 'Move Items', 'Move'),
          leaf('MovePallet', 'Move Pallet'),
          leaf('Adjustment', 'Adjustment'),
          leaf('CycleCount', 'Cycle Count'),
          leaf('ProductReplenishment', 'Product Replenishment'),
          leaf('ProductExpire', 'Product Expiry', 'ProductExpire'),
        ],
      },
      {
        key: 'Outbound', name: 'Orders',
        children: [
          leaf('OrderDashboard', 'Order Dashboard'),
          leaf('BatchAllocation', 'Batch Allocation'),
          leaf('BatchPrint', 'Batch Print'),
          leaf('BatchJob', 'Batch Job'),
          leaf('KitDashboard', 'Kit Dashboard'),
          leaf('ShippingDashboard', 'Shipping Dashboard'),
          leaf('BKO', 'Backorders', 'BKO'),
        ],
      },
      {
        key: 'ReturnsGroup', name: 'Returns',
        children: [
          leaf('Returns', 'Returns'),
          leaf('ManualReturns', 'Manual Returns'),
          leaf('RMA', 'RMA'),
          leaf('Return', 'Return'),
        ],
      },
      {
        key: 'BillingGroup', name: 'Billing',
        children: [leaf('Billing', 'Billing'), leaf('BillingSummary', 'Billing Summary'), leaf('InvoiceAudit', 'Invoice Audit')],
      },
      {
        key: 'Reports', name: 'Reports',
        children: [
          leaf('InventoryReports', 'Inventory Reports'),
          leaf('InboundReports', 'Inbound Reports'),
          leaf('OrderReports', 'Order Reports'),
          leaf('OtherReports', 'Other Reports'),
          leaf('ProductivityReport', 'Productivity Report'),
          leaf('JobTracking', 'Job Tracking'),
          leaf('Labor', 'Labor'),
        ],
      },
    ],
  },
  {
    id: 2,
    key: 'FREIGHT',
    name: 'Freight Management',
    description: 'Freight shipments, bills of lading, pallets and carriers',
    modules: [leaf('FreightDashboard', 'Dashboard', 'Dashboard'), leaf('FreightShipment', 'Freight Shipment')],
  },
  {
    id: 3,
    key: 'SERVICE',
    name: 'Service Management',
    description: 'Help desk tickets for clients and staff',
    modules: [leaf('ServiceDashboard', 'Dashboard', 'Dashboard'), leaf('HelpDesk', 'Help Desk')],
  },
];

/** Every module of every app, flattened, with its app and parent. */
export function flattenModules(): { app: AppDef; module: ModuleDef; parentKey: string | null }[] {
  const out: { app: AppDef; module: ModuleDef; parentKey: string | null }[] = [];
  const walk = (app: AppDef, mods: ModuleDef[], parentKey: string | null) => {
    for (const m of mods) {
      out.push({ app, module: m, parentKey });
      if (m.children) walk(app, m.children, m.key);
    }
  };
  for (const app of APPS) walk(app, app.modules, null);
  return out;
}

export type Permission = 'read' | 'write';
/** Spec section 6: read permission maps to permission id 0, anything else to 1. */
export const permissionIdOf = (permission: string): 0 | 1 => (permission.toLowerCase() === 'read' ? 0 : 1);
