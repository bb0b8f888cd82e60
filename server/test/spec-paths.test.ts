import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from './helpers.js';

// Issue 4: every path spec section 7 lists for Warehouse and user, Customer, SKU and Location, at that exact
// path (its spellings and case included) and method, documented in the OpenAPI with a tag and a summary.
const SPEC_PATHS: [method: string, path: string][] = [
  ['post', '/Warehouse/Warehouse/AddWarehouse'],
  ['get', '/Warehouse/Warehouse/GetWarehouseListWithColumns'],
  ['put', '/Warehouse/Warehouse/UpdateWarehouse'],
  ['get', '/Warehouse/User/GetModuleWarehouseUsers'],
  ['get', '/Warehouse/User/GetCustomersByWarehouse'],
  ['post', '/Warehouse/User/CreateUser'],
  ['post', '/Warehouse/User/GetUsers'],
  ['post', '/Warehouse/User/DownloadUserExcel'],
  ['get', '/Warehouse/User/GetUserDetails'],
  ['put', '/Warehouse/User/UpdateUser'],
  ['get', '/Warehouse/User/UserFiltersLabels'],
  ...([
    ['post', 'AddNewCustomer'], ['post', 'GetCustomers'], ['post', 'DownloadCustomerExcel'], ['get', 'CustomerFiltersLabels'], ['post', 'UpdateCustomer'],
    ['get', 'GetCustomerInfoById'], ['get', 'WarehouseByCustomerid'],
    ['get', 'GetAllCustomerCarrier'], ['get', 'GetCarrierIntegrationProperties'], ['post', 'CreateIntegrationCarrier'], ['get', 'GetCustomerCarrierDetails'],
    ['put', 'UpdateIntegrationCarrier'], ['delete', 'DeleteCarrier'],
    ['get', 'GetAllCustomerChannel'], ['get', 'GetChannelProperties'], ['get', 'GetAllCustomerChannelDetails'], ['post', 'CreateIntegrationSalesChannel'],
    ['put', 'UpdateCustomerSalesChannel'], ['delete', 'DeleteCustomersaleschannel'],
    ['get', 'GetDocumentTypes'], ['get', 'GetClientDocumentTypes'], ['post', 'AddCustomerDocument'], ['put', 'UpdateCustomerDocument'],
  ] as const).map(([m, a]): [string, string] => [m, `/Warehouse/Customer/${a}`]),
  ...([
    ['post', 'AddNewSku'], ['get', 'GetUOMs'], ['post', 'GetAllSkus'], ['post', 'DownloadSKUExcel'], ['get', 'SkuFiltersLabels'], ['get', 'GetSKUInfoById'], ['put', 'UpdateSku'],
    ['get', 'GetKitItemsByCustomerid'], ['post', 'AddKitComponent'], ['get', 'GetAllKitCompBySkuId'], ['put', 'UpdateKitComponent'], ['delete', 'DeleteKitComponent'],
    ['get', 'GetParentAndChildPackages'], ['post', 'CreateSkuPackage'], ['put', 'UpdateSkuPackage'], ['get', 'GetSkuPackagesbySkuid'], ['delete', 'DeleteSkuPackageByid'],
    ['post', 'CreateSkuBarcode'], ['get', 'GetSkuBarcodebySkuid'], ['put', 'UpdateSkuBarcode'], ['delete', 'DeletsSkuBarcode'],
    ['get', 'GetHazmats'], ['post', 'CreateAttribute'], ['get', 'GetAttributesBySkuid'], ['put', 'UpdateAttribute'],
  ] as const).map(([m, a]): [string, string] => [m, `/warehouse/Sku/${a}`]),
  ['get', '/warehouse/Location/GetLocationTypes'],
  ['post', '/warehouse/Location/CreateLocation'],
];

let t: TestApp;
beforeAll(async () => { t = await buildTestApp(); });
afterAll(async () => { await t?.close(); });

describe('spec section 7 paths in the OpenAPI document', () => {
  it('has each at its exact path and method, with a tag and a summary', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/docs/json' })).json() as { paths: Record<string, Record<string, { tags?: string[]; summary?: string }>> };
    const missing = SPEC_PATHS.filter(([method, path]) => {
      const op = doc.paths[path]?.[method];
      return !op || !op.tags?.length || !op.summary;
    });
    expect(missing).toEqual([]);
  });
});
