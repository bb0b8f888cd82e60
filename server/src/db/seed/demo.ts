import type { Db, Executor } from '../schema.js';
import { insertUser } from './users.js';
import { seedReceivingOrders } from './demo-receiving.js';
import { REPLENISHMENT_BAYS, seedReplenishment } from './demo-replenishment.js';
import { seedFloor } from './demo-floor.js';
import { postDemoStock, type DemoLeg } from './demo-stock.js';
import type { StockEngine } from '../../platform/stock/stock-engine.js';
import type { FloorEvent, FloorEvents } from '../../platform/floor-events.js';
import { systemActor } from '../../platform/actor.js';

/** The client whose account the demo signs in as (Fjord Electronics). */
const DEMO_CLIENT_CODE = 'FJE';

/** Demo sign-ins; the README lists them. */
export const DEMO_USERS = {
  admin: { username: 'admin', password: 'bolx-demo-admin' },
  manager: { username: 'manager', password: 'bolx-demo-manager' },
  staff: { username: 'staff', password: 'bolx-demo-staff' },
  client: { username: 'client', password: 'bolx-demo-client' },
} as const;

const WAREHOUSES = [
  { code: 'NJ1', name: 'Newark Fulfillment Center', city: 'Newark', state: 'NJ', zip: '07105', address1: '400 Doremus Ave', timezone: 'America/New_York', locations: 400, fill: 0.93 },
  { code: 'TX1', name: 'Dallas Distribution Hub', city: 'Dallas', state: 'TX', zip: '75212', address1: '2250 Irving Blvd', timezone: 'America/Chicago', locations: 350, fill: 0.75 },
  { code: 'CA1', name: 'Ontario West Coast DC', city: 'Ontario', state: 'CA', zip: '91761', address1: '1601 S Vineyard Ave', timezone: 'America/Los_Angeles', locations: 250, fill: 0.4 },
];

/** Customers, the warehouses (by index) that serve them, and what they sell. Lot-tracked ones get lots and expiry. */
const CUSTOMERS = [
  { code: 'ACME', name: 'Acme Outdoor Gear', warehouses: [0, 1], lots: false, products: ['Trail Backpack 35L', 'Trekking Pole Pair', 'Camp Stove', 'Insulated Bottle 1L', 'Down Sleeping Bag', 'Headlamp 400lm', 'Rain Shell Jacket', 'Dome Tent 2P', 'Water Filter', 'Folding Chair', 'Carabiner Set', 'Dry Bag 20L'] },
  { code: 'BHC', name: 'Blue Harbor Coffee', warehouses: [0], lots: true, products: ['Whole Bean Espresso 1kg', 'Decaf Colombia 500g', 'Cold Brew Pack', 'Ethiopia Yirgacheffe 250g', 'House Blend 2kg', 'Paper Filters 100ct', 'Pour-over Kettle', 'Ceramic Mug'] },
  { code: 'CPS', name: 'Cascade Pet Supply', warehouses: [1, 2], lots: true, products: ['Grain-Free Kibble 12kg', 'Cat Litter 10L', 'Chew Toy Large', 'Salmon Treats 200g', 'Pet Bed Medium', 'Leash 1.8m', 'Aquarium Filter', 'Bird Seed 5kg'] },
  { code: 'DHG', name: 'Delta Home Goods', warehouses: [0, 2], lots: false, products: ['Linen Sheet Set Queen', 'Bath Towel 6pk', 'Cast Iron Skillet', 'Glass Storage Set', 'LED Desk Lamp', 'Throw Blanket', 'Knife Block 8pc', 'Shower Curtain'] },
  { code: 'EVN', name: 'Evergreen Naturals', warehouses: [1], lots: true, products: ['Vitamin D3 90ct', 'Omega-3 120ct', 'Herbal Tea Sampler', 'Protein Powder 1kg', 'Magnesium 60ct', 'Collagen 300g', 'Probiotic 30ct', 'Elderberry Syrup'] },
  { code: 'FJE', name: 'Fjord Electronics', warehouses: [2], lots: false, products: ['USB-C Cable 2m', 'Wireless Earbuds', 'Power Bank 20000', 'Bluetooth Speaker', 'Smart Plug 2pk', 'HDMI Cable 3m', 'Webcam 1080p', 'Phone Stand'] },
];
const VARIANTS = ['Black', 'Blue', 'Green', 'Grey'];
const SKUS_PER_CUSTOMER = 34; // 6 × 34 ≈ 200

/** A small deterministic generator, so every demo database looks the same. */
function rng(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

async function insertChunks<T>(rows: T[], size: number, insert: (chunk: T[]) => Promise<unknown>) {
  for (let i = 0; i < rows.length; i += size) await insert(rows.slice(i, i + size));
}

/** Fills an empty database with a believable 3PL: warehouses, clients, SKUs, locations, stock and sign-ins. */
/** Every demo client's adjustment approval threshold (units). */
export const DEMO_ADJUSTMENT_THRESHOLD = 100;

export async function seedDemoData(db: Db, stock: StockEngine, floorEvents: FloorEvents): Promise<void> {
  const random = rng(42);
  const now = new Date().toISOString();
  await db.transaction().execute(async (tx) => {
    const warehouseIds: number[] = [];
    for (const w of WAREHOUSES) {
      const { id } = await tx.insertInto('warehouse').values({
        code: w.code, name: w.name, address1: w.address1, address2: null, city: w.city, state: w.state, zip: w.zip,
        country: 'United States', timezone: w.timezone, capacity: w.locations, is_active: 1, created_at: now, updated_at: now,
      }).returning('id').executeTakeFirstOrThrow();
      warehouseIds.push(id);
    }

    const customerIds: number[] = [];
    for (const c of CUSTOMERS) {
      const { id } = await tx.insertInto('customer').values({
        code: c.code, name: c.name, email: `ops@${c.code.toLowerCase()}.example.com`, phone: '+1 555 0100',
        address1: null, city: null, state: null, zip: null, country: 'United States', is_active: 1, created_at: now, updated_at: now,
        // Adjustments of more units than this wait for a manager, so the demo shows the approval flow.
        adjustment_approval_threshold: DEMO_ADJUSTMENT_THRESHOLD,
      }).returning('id').executeTakeFirstOrThrow();
      customerIds.push(id);
      await tx.insertInto('customer_warehouse').values(c.warehouses.map((w) => ({ customer_id: id, warehouse_id: warehouseIds[w] }))).execute();
    }

    const skuRows = CUSTOMERS.flatMap((c, ci) =>
      Array.from({ length: SKUS_PER_CUSTOMER }, (_, i) => {
        const product = c.products[i % c.products.length];
        const variant = VARIANTS[Math.floor(i / c.products.length) % VARIANTS.length];
        return {
          customer_id: customerIds[ci], sku_code: `${c.code}-${String(1001 + i)}`, description: `${product} – ${variant}`,
          uom: 'EA', upc: null, is_kit: 0, is_active: 1, is_lot_tracked: c.lots ? 1 : 0, is_expiry_tracked: c.lots ? 1 : 0, weight_kg: Math.round((0.1 + random() * 12) * 100) / 100,
          length_cm: Math.round(10 + random() * 50), width_cm: Math.round(8 + random() * 40), height_cm: Math.round(4 + random() * 30),
          created_at: now, updated_at: now,
        };
      }));
    await insertChunks(skuRows, 200, (chunk) => tx.insertInto('sku').values(chunk).execute());
    const skus = await tx.selectFrom('sku').select(['id', 'customer_id']).execute();
    await seedKits(tx, customerIds, now);

    for (const [wi, w] of WAREHOUSES.entries()) {
      const warehouseId = warehouseIds[wi];
      const special = [['DOCK-01', 'dock'], ['DOCK-02', 'dock'], ['STAGE-01', 'staging'], ['RETURNS-01', 'returns'], ['QUARANTINE-01', 'quarantine']] as const;
      // The replenishment flow adds a reserve and a pick aisle (demo-replenishment); the grid fills the rest.
      const storage = w.locations - special.length - 2 * REPLENISHMENT_BAYS;
      const locationRows = [
        ...special.map(([code, type]) => ({ code, type, zone: code.split('-')[0], aisle: null, rack: null, level: null, bin: null, capacity: 0 })),
        ...Array.from({ length: storage }, (_, i) => {
          const zone = String.fromCharCode(65 + Math.floor(i / 100)); // A, B, C, D
          const aisle = String(Math.floor((i % 100) / 20) + 1).padStart(2, '0');
          const rack = String(Math.floor((i % 20) / 4) + 1).padStart(2, '0');
          const level = String((i % 4) + 1);
          const type = level === '1' ? 'shelf' : 'rack';
          return { code: `${zone}-${aisle}-${rack}-${level}`, type, zone, aisle, rack, level, bin: null, capacity: 500 };
        }),
      ].map((l) => ({ ...l, warehouse_id: warehouseId, is_active: 1, created_at: now, updated_at: now }));
      await insertChunks(locationRows, 200, (chunk) => tx.insertInto('location').values(chunk).execute());

      // Stock: fill the share of storage positions that gives each warehouse its demo occupancy (with the
      // replenishment aisles, which all hold stock).
      const positions = await tx.selectFrom('location').select('id').where('warehouse_id', '=', warehouseId).where('type', 'in', ['rack', 'shelf']).orderBy('id').execute();
      const served = CUSTOMERS.map((c, ci) => ({ c, id: customerIds[ci] })).filter(({ c }) => c.warehouses.includes(wi));
      const filled = Math.round(w.locations * w.fill) - 2 * REPLENISHMENT_BAYS;
      const balances = positions.slice(0, filled).map((loc, i) => {
        const owner = served[i % served.length];
        const ownSkus = skus.filter((s) => s.customer_id === owner.id);
        const sku = ownSkus[Math.floor(random() * ownSkus.length)];
        const days = Math.floor(20 + random() * 400);
        return {
          warehouse_id: warehouseId, customer_id: owner.id, sku_id: sku.id, location_id: loc.id,
          lot: owner.c.lots ? `L${24000 + Math.floor(random() * 900)}` : '',
          expiry_date: owner.c.lots ? new Date(Date.now() + days * 864e5).toISOString().slice(0, 10) : null,
          pallet: i % 3 === 0 ? `PLT-${w.code}-${String(i).padStart(5, '0')}` : '',
          on_hand: Math.floor(5 + random() * 240), allocated: 0, updated_at: now,
        };
      });
      // Every unit arrives through the ledger (postDemoStock): receiving orders, opening stock, replenishment stock.
      const legs: DemoLeg[] = [];
      // Receiving orders: a closed one whose receipts are some of this stock, one at the dock, one due next week.
      const dock = await tx.selectFrom('location').select('id').where('warehouse_id', '=', warehouseId).where('code', '=', 'DOCK-01').executeTakeFirstOrThrow();
      const ownSkus = skus.filter((s) => s.customer_id === served[0].id).map((s) => s.id);
      // The client with the demo's client account receives where it is served (it sees its receipts billed), else the first.
      const receiver = (served.find(({ c }) => c.code === DEMO_CLIENT_CODE) ?? served[0]).id;
      const events: FloorEvent[] = [];
      const received = await seedReceivingOrders(tx, {
        warehouseId, customerId: receiver, supplierIndex: wi, dockId: dock.id, balances, at: now, legs, events,
        skuIds: skus.filter((s) => s.customer_id === receiver).slice(0, 3).map((s) => s.id),
      });
      for (const [i, b] of balances.entries()) {
        if (received.has(i)) continue;
        legs.push({
          place: { warehouseId: b.warehouse_id, customerId: b.customer_id, skuId: b.sku_id, locationId: b.location_id, lot: b.lot, pallet: b.pallet },
          qty: b.on_hand, txnType: 'receive', expiryDate: b.expiry_date, reason: 'Opening stock (demo data)', documentType: 'DEMO', documentId: 'opening-stock',
        });
      }
      // Replenishment: bulk pallets in reserve racking, pick faces below their min (the client's last SKUs).
      await seedReplenishment(tx, {
        warehouseId, warehouseCode: w.code, customerId: served[0].id, lots: served[0].c.lots, at: now, legs, skuIds: ownSkus.slice(-REPLENISHMENT_BAYS),
      });
      await postDemoStock(tx, stock, legs);
      await floorEvents.record({ tx, afterCommit: () => {} }, systemActor('demo'), events, new Date(now));
      // The floor: totes, a pack station and carton types (outside the storage grid: they hold no stock at rest).
      await seedFloor(tx, { warehouseId, at: now });
    }

    const [nj, tx1, ca] = warehouseIds;
    const customersOf = (...wis: number[]) => customerIds.filter((_, ci) => CUSTOMERS[ci].warehouses.some((w) => wis.includes(w)));
    await insertUser(tx, {
      ...DEMO_USERS.admin, email: 'admin@bolx.example.com', firstName: 'Alex', lastName: 'Admin', role: 'SuperAdministrator',
      timezone: 'America/New_York', warehouseIds: [nj, tx1, ca], customerIds: customerIds,
      modules: { WMS: 'write', FREIGHT: 'write', SERVICE: 'write' },
    });
    await insertUser(tx, {
      ...DEMO_USERS.manager, email: 'manager@bolx.example.com', firstName: 'Morgan', lastName: 'Manager', role: 'WarehouseManager',
      timezone: 'America/Chicago', defaultAppId: 1, warehouseIds: [nj, tx1], customerIds: customersOf(0, 1),
      modules: { WMS: 'write', Warehouse: 'read', User: 'read', Customer: 'read', FREIGHT: 'write' },
    });
    await insertUser(tx, {
      ...DEMO_USERS.staff, email: 'staff@bolx.example.com', firstName: 'Sam', lastName: 'Staff', role: 'WarehouseStaff',
      timezone: 'America/Los_Angeles', defaultAppId: 1, warehouseIds: [ca], customerIds: customersOf(2),
      modules: {
        Dashboard: 'read', LocationGroup: 'write', Inbound: 'write', Inventory: 'write', Outbound: 'write', ReturnsGroup: 'write',
        SKU: 'read', Dimensions: 'write', InventoryReports: 'read', InboundReports: 'read', OrderReports: 'read',
      },
    });
    const fjord = customerIds[CUSTOMERS.findIndex((c) => c.code === DEMO_CLIENT_CODE)];
    await insertUser(tx, {
      ...DEMO_USERS.client, email: 'client@fje.example.com', firstName: 'Casey', lastName: 'Client', role: 'Client',
      customerId: fjord, defaultAppId: 1,
      modules: {
        // A client takes in and cancels its own orders (issue 12); the warehouse's moves stay staff-only.
        Dashboard: 'read', SKU: 'read', Location: 'read', InBound: 'read', OrderDashboard: 'write', KitDashboard: 'read', ShippingDashboard: 'read', RMA: 'read',
        InventoryReports: 'read', OrderReports: 'read', Billing: 'read', BillingSummary: 'read', SERVICE: 'write',
      },
    });
  });
}

/** Demo kits for /KitDashboard: a kit SKU of two clients made of their own SKUs (stock of the components is already seeded). */
const DEMO_KITS = [
  { customer: 'ACME', code: 'ACME-KIT1', description: 'Camp Starter Kit', components: [['ACME-1001', 1], ['ACME-1003', 1], ['ACME-1006', 2]] },
  { customer: 'FJE', code: 'FJE-KIT1', description: 'Desk Setup Kit', components: [['FJE-1001', 2], ['FJE-1008', 1]] },
] as const;

async function seedKits(tx: Executor, customerIds: number[], now: string) {
  for (const kit of DEMO_KITS) {
    const customerId = customerIds[CUSTOMERS.findIndex((c) => c.code === kit.customer)];
    const { id } = await tx.insertInto('sku').values({
      customer_id: customerId, sku_code: kit.code, description: kit.description, uom: 'EA', upc: null, is_kit: 1, is_active: 1,
      weight_kg: null, length_cm: null, width_cm: null, height_cm: null, created_at: now, updated_at: now,
    }).returning('id').executeTakeFirstOrThrow();
    const parts = await tx.selectFrom('sku').select(['id', 'sku_code']).where('customer_id', '=', customerId).where('sku_code', 'in', kit.components.map(([c]) => c)).execute();
    await tx.insertInto('kit_component').values(kit.components.map(([code, quantity]) => ({
      customer_id: customerId, kit_sku_id: id, component_sku_id: parts.find((p) => p.sku_code === code)!.id, quantity, created_at: now, updated_at: now,
    }))).execute();
  }
}
