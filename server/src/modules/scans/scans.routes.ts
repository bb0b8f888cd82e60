import { scanResolveRequest, scanResolveResponse } from '@bolx/contracts';
import { principalOf, type RoutePolicy } from '../../plugins/access.js';
import { authErrors, type RouteModule } from '../../http.js';

const tags = ['Scans'];
/**
 * Any signed-in user in their scope; the service further asks for one of the screens a scan serves (SCAN_MODULES)
 * — a route policy names one module, and a scan belongs to several. Not the Location module: the stock screens
 * work without it.
 */
const read: RoutePolicy = { access: 'authenticated', scope: 'tenant' };

export const scanRoutes: RouteModule = (api, { scans }) => {
  api.post('/Warehouse/Scan/Resolve', {
    schema: {
      tags, summary: 'What a scanned code is in a warehouse: a SKU (code, UPC, barcode, package GTIN with its units), a location of any type, or a pallet with its lines; 404 naming the code',
      body: scanResolveRequest, response: { 200: scanResolveResponse, ...authErrors },
    },
    config: { policy: read },
  }, (req) => scans.resolve(principalOf(req), req.body));
};
