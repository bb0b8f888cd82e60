/**
 * The real-time hub's event map (spec section 7, Real-time hub): hub method name → argument. Every module
 * that raises live updates adds its event here; server and web both type against it.
 */
export interface HubEventMap {
  ReceiveWareHousedata: { subEvent: 'AddWarehouse' | 'UpdateWarehouse'; payload: unknown };
  ReceiveUserData: { subEvent: 'AddUser' | 'UpdateUser'; payload: { warehouses: number[]; customers: number[]; [k: string]: unknown } };
  ReceiveCustomerData: { subEvent: 'AddCustomer' | 'UpdateCustomer'; payload: unknown };
  ReceiveSkuData: {
    subEvent:
      | 'SkuAdd' | 'SkuUpdate'
      | 'AddPackage' | 'UpdatePackage' | 'DeletePackage'
      | 'AddAttribute' | 'UpdateAttribute'
      | 'AddBarcode' | 'UpdateBarcode' | 'DeleteBarcode'
      | 'AddKitComponent' | 'UpdateKitComponent' | 'DeleteKitComponent';
    payload: unknown;
    skuId?: number;
    customerId?: number;
  };
  /** Stock changed: the balances of one document (move, adjustment, receipt…). */
  ReceiveInventoryData: { subEvent: 'Move' | 'Adjust'; payload: { document: string; skuId: number; locationIds: number[] } };
}
export type HubEventName = keyof HubEventMap;
