/**
 * Where the floor's screens live, for any screen that links to them (the order drawer, /BatchJob): the picking
 * screen on a job, the pack station (on an order), and an order's packing slip.
 */
export const pickingPath = (jobId: number) => `/BatchJob?job=${jobId}`;
export const packStationPath = (orderId?: number) => (orderId ? `/BatchJob?pack=1&order=${orderId}` : '/BatchJob?pack=1');
export const packingSlipUrl = (orderId: number) => `Warehouse/BatchPrint/PackingSlip?orderId=${orderId}`;
