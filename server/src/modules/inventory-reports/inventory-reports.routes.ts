import { z } from 'zod';
import {
  agingResponse, availabilityResponse, expiringLotsRequest, expiringLotsResponse, inventoryReportRequest, onHandByLocationResponse,
  onHandByLotResponse, onHandByPalletResponse, onHandBySkuResponse, palletListRequest, palletListResponse, stockAsOfRequest, stockAsOfResponse,
} from '@bolx/contracts';
import { principalOf, type RoutePolicy } from '../../plugins/access.js';
import { authErrors, sendXlsx, type RouteModule } from '../../http.js';
import type { ReportName } from './inventory-reports.service.js';

const reportsPolicy = (key: string): RoutePolicy => ({ access: 'authenticated', module: { key, permission: 'read' }, scope: 'tenant' });

/** Each report: its path prefix, request and item schemas, and the module that grants it. */
const ROUTES: { name: ReportName; path: string; summary: string; body: z.ZodTypeAny; response: z.ZodTypeAny; module: string; file: string }[] = [
  { name: 'OnHandBySku', path: '/Warehouse/InventoryReport/{}OnHandBySku', summary: 'On hand by SKU', body: inventoryReportRequest, response: onHandBySkuResponse, module: 'InventoryReports', file: 'on-hand-by-sku' },
  { name: 'OnHandByLocation', path: '/Warehouse/InventoryReport/{}OnHandByLocation', summary: 'On hand by location', body: inventoryReportRequest, response: onHandByLocationResponse, module: 'InventoryReports', file: 'on-hand-by-location' },
  { name: 'OnHandByLot', path: '/Warehouse/InventoryReport/{}OnHandByLot', summary: 'On hand by lot and expiry', body: inventoryReportRequest, response: onHandByLotResponse, module: 'InventoryReports', file: 'on-hand-by-lot' },
  { name: 'OnHandByPallet', path: '/Warehouse/InventoryReport/{}OnHandByPallet', summary: 'On hand by pallet (licence plate)', body: inventoryReportRequest, response: onHandByPalletResponse, module: 'InventoryReports', file: 'on-hand-by-pallet' },
  { name: 'Availability', path: '/Warehouse/InventoryReport/{}Availability', summary: 'Availability: on hand less allocated, and what expired lots hold back', body: inventoryReportRequest, response: availabilityResponse, module: 'InventoryReports', file: 'availability' },
  { name: 'Aging', path: '/Warehouse/InventoryReport/{}Aging', summary: 'Aging: how long stock has been in the warehouse', body: inventoryReportRequest, response: agingResponse, module: 'InventoryReports', file: 'aging' },
  { name: 'StockAsOf', path: '/Warehouse/InventoryReport/{}StockAsOf', summary: 'Stock as it stood at a past date, from the ledger', body: stockAsOfRequest, response: stockAsOfResponse, module: 'InventoryReports', file: 'stock-as-of' },
  { name: 'ExpiringLots', path: '/Warehouse/Inventory/{}ExpiringLots', summary: 'Lots expiring within N days (and expired ones)', body: expiringLotsRequest, response: expiringLotsResponse, module: 'ProductExpire', file: 'expiring-lots' },
  { name: 'OnHandByPallet', path: '/Warehouse/MovePallet/{}Pallets', summary: 'Pallets and where they are', body: palletListRequest, response: palletListResponse, module: 'MovePallet', file: 'pallets' },
];

export const inventoryReportRoutes: RouteModule = (api, { inventoryReports }) => {
  for (const r of ROUTES) {
    const tags = ['Inventory reports'];
    api.post(r.path.replace('{}', 'Get'), {
      schema: { tags, summary: r.summary, body: r.body, response: { 200: r.response, ...authErrors } },
      config: { policy: reportsPolicy(r.module) },
    }, (req) => inventoryReports.list(r.name, principalOf(req), req.body as never));
    api.post(`${r.path.replace('{}', 'Download')}Excel`, {
      schema: { tags, summary: `${r.summary} as an Excel workbook`, body: r.body, response: { 200: z.any().describe('xlsx file'), ...authErrors } },
      config: { policy: reportsPolicy(r.module) },
    }, async (req, reply) => sendXlsx(reply, r.file, await inventoryReports.download(r.name, principalOf(req), req.body as never)));
  }
};
