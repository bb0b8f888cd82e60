// The floor (spec: /BatchAllocation, /BatchJob, /BatchPrint, the picking screen, the pack station, ship confirm):
// allocation by rules, waves cut into pick jobs, scan-to-confirm picking into totes, packing into cartons and
// shipping, each step through the stock engine and recorded as a floor event (who, when, where, how long).
//
// Stock on the way out, and who owns it (the reservation owner stays the order line, SO/orderId/lineId, throughout):
//   allocated  at the bin        (reservation at the bin's balance)
//   picked     at the tote       (pick_out/pick_in moved it; the reservation moved with it)
//   packed     at the pack station location, in a closed carton (pack_out/pack_in; the reservation moved with it)
//   shipped    gone              (ship; the reservation released)
import { z } from 'zod';
import { field, INT_MAX, QUANTITY_MAX } from './fields.js';
import { listRequest, listResponse } from './common.js';
import { ORDER_STATUSES, SHORT_REASONS } from './orders.js';

const id = field.id();
const optionalId = field.int(0, INT_MAX).optional();
const code = field.text(128).trim();
const dateFilter = field.text(10).regex(/^\d{4}-\d{2}-\d{2}$/, 'Use YYYY-MM-DD');

// ---- Batch allocation rules (/BatchAllocation) ----

export const ORDER_LINE_SHAPES = ['any', 'single-line', 'multi-line'] as const;
export type OrderLineShape = (typeof ORDER_LINE_SHAPES)[number];

/**
 * Which orders a rule chooses, all within one warehouse: orders that are New, Partially Allocated or Backordered
 * (to allocate) or Allocated (to release), matching every criterion given.
 */
export const batchRuleCriteria = z.object({
  warehouseId: id,
  customerId: optionalId,
  /** Requested ship date up to (inclusive); orders without one match. */
  shipDateTo: dateFilter.optional(),
  carrierAccountId: optionalId,
  carrierService: field.text(64).trim().optional(),
  lineShape: z.enum(ORDER_LINE_SHAPES).optional().default('any'),
  /** Priority from (1 = most urgent) up to this number. */
  priorityTo: field.int(1, 9).optional(),
  /** Only orders whose stock is (or would be) picked in this zone. */
  zone: field.text(16).trim().toUpperCase().optional(),
  /** At most this many orders, oldest requested ship date and highest priority first. */
  maxOrders: field.int(1, 10_000).optional(),
});
export type BatchRuleCriteria = z.infer<typeof batchRuleCriteria>;

export const batchRulePreview = z.object({
  orders: z.number().int(),
  lines: z.number().int(),
  units: z.number().int(),
  /** By status: how many of the matched orders are waiting for stock and how many are allocated already. */
  byStatus: z.array(z.object({ status: z.enum(ORDER_STATUSES), count: z.number().int() })),
  /** The first matched orders (at most 50), as the preview's table. */
  sample: z.array(z.object({
    orderId: z.number().int(), soNumber: z.string(), referenceNumber: z.string(), customerName: z.string(),
    status: z.enum(ORDER_STATUSES), priority: z.number().int(), requestedShipDate: z.string().nullable(), lineCount: z.number().int(), units: z.number().int(),
  })),
});
export type BatchRulePreview = z.infer<typeof batchRulePreview>;

export const savedBatchRule = z.object({
  ruleId: z.number().int(),
  name: z.string(),
  criteria: batchRuleCriteria,
  lastRunAt: z.string().nullable(),
  createdBy: z.string().nullable(),
  updatedAt: z.string(),
});
export type SavedBatchRule = z.infer<typeof savedBatchRule>;
export const saveBatchRuleInput = z.object({
  ruleId: optionalId,
  name: field.text(64, 'Please enter a name!').trim().min(1, 'Please enter a name!'),
  criteria: batchRuleCriteria,
});
export const batchRuleIdInput = z.object({ ruleId: id });
export const batchRuleListRequest = listRequest(z.object({ warehouseId: optionalId }));
export const batchRuleListResponse = listResponse(savedBatchRule);

/** RunBatchAllocation: allocate the rule's orders as a background job (the answer is the queued job). */
export const runBatchAllocationInput = z.object({ criteria: batchRuleCriteria, ruleId: optionalId });

/** The background job's result: the spec's progress card ends with this summary. */
export const batchAllocationSummary = z.object({
  orders: z.number().int(),
  fully: z.number().int(),
  partially: z.number().int(),
  notAllocated: z.number().int(),
  refused: z.number().int(),
  shortLinesByReason: z.partialRecord(z.enum(SHORT_REASONS), z.number().int()),
  /** Orders that did not allocate fully, with why (at most 200). */
  notFully: z.array(z.object({ orderId: z.number().int(), soNumber: z.string(), status: z.enum(ORDER_STATUSES), reason: z.string() })),
});
export type BatchAllocationSummary = z.infer<typeof batchAllocationSummary>;

// ---- Waves and pick jobs (/BatchJob) ----

/** discrete: one order per job; cluster: up to `totesPerJob` orders per job, one tote each; zone: one job per zone. */
export const PICK_STRATEGIES = ['discrete', 'cluster', 'zone'] as const;
export type PickStrategy = (typeof PICK_STRATEGIES)[number];

export const WAVE_STATUSES = ['Open', 'In Progress', 'Done', 'Cancelled'] as const;
export type WaveStatus = (typeof WAVE_STATUSES)[number];
export const PICK_JOB_STATUSES = ['Open', 'Assigned', 'In Progress', 'Short', 'Done', 'Cancelled'] as const;
export type PickJobStatus = (typeof PICK_JOB_STATUSES)[number];
export const PICK_TASK_STATUSES = ['Open', 'Picked', 'Short'] as const;
export type PickTaskStatus = (typeof PICK_TASK_STATUSES)[number];

export const MAX_TOTES_PER_JOB = 50;

/**
 * CreateWave: release orders to the floor. Either the orders named, or every Allocated order a rule matches.
 * Orders that are not Allocated (or Partially Allocated/Backordered for a customer that allows backorders) are
 * refused one by one and listed; the others are released together.
 */
export const createWaveInput = z.object({
  warehouseId: id,
  orderIds: z.array(id).min(1, 'Select at least one order').max(5000, 'At most 5,000 orders in a wave').optional(),
  criteria: batchRuleCriteria.optional(),
  strategy: z.enum(PICK_STRATEGIES, { error: 'Please select a pick strategy!' }),
  /** Orders (one tote each) per cluster job. */
  totesPerJob: field.int(1, MAX_TOTES_PER_JOB).optional().default(8),
}).refine((w) => w.orderIds !== undefined || w.criteria !== undefined, { message: 'Select orders or a rule', path: ['orderIds'] });
export type CreateWaveInput = z.infer<typeof createWaveInput>;

export const waveSummary = z.object({
  uniqueid: z.number().int(),
  waveId: z.number().int(),
  waveNumber: z.string(),
  warehouseId: z.number().int(),
  warehouseName: z.string(),
  strategy: z.enum(PICK_STRATEGIES),
  status: z.enum(WAVE_STATUSES),
  orderCount: z.number().int(),
  jobCount: z.number().int(),
  jobsDone: z.number().int(),
  lineCount: z.number().int(),
  units: z.number().int(),
  pickedUnits: z.number().int(),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
});
export type WaveSummary = z.infer<typeof waveSummary>;

export const createWaveResult = z.object({
  wave: waveSummary,
  released: z.array(z.object({ orderId: z.number().int(), soNumber: z.string() })),
  refused: z.array(z.object({ orderId: z.number().int(), soNumber: z.string().nullable(), message: z.string() })),
});

export const waveFilters = z.object({ warehouseId: optionalId, status: z.enum(WAVE_STATUSES).optional(), fromDate: dateFilter.optional(), toDate: dateFilter.optional() });
export const waveListRequest = listRequest(waveFilters);
export const waveListResponse = listResponse(waveSummary);
export const waveIdInput = z.object({ waveId: id, reason: field.text(255).optional() });
export const waveByIdQuery = z.object({ waveId: field.idParam() });

export const pickJobSummary = z.object({
  uniqueid: z.number().int(),
  jobId: z.number().int(),
  jobNumber: z.string(),
  waveId: z.number().int(),
  waveNumber: z.string(),
  warehouseId: z.number().int(),
  strategy: z.enum(PICK_STRATEGIES),
  /** The zone of a zone job. */
  zone: z.string().nullable(),
  status: z.enum(PICK_JOB_STATUSES),
  assignedTo: z.number().int().nullable(),
  assignedToName: z.string().nullable(),
  orderCount: z.number().int(),
  stopCount: z.number().int(),
  units: z.number().int(),
  pickedUnits: z.number().int(),
  shortUnits: z.number().int(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  createdAt: z.string(),
});
export type PickJobSummary = z.infer<typeof pickJobSummary>;

/** GetWave: one wave with its pick jobs. */
export const waveDetail = waveSummary.extend({ jobs: z.array(pickJobSummary) });
export type WaveDetail = z.infer<typeof waveDetail>;

/** One order of a job and the tote its units go into (null until the picker scans one). */
export const pickJobTote = z.object({
  slot: z.number().int(),
  orderId: z.number().int(),
  soNumber: z.string(),
  customerName: z.string(),
  toteLocationId: z.number().int().nullable(),
  toteCode: z.string().nullable(),
});
export type PickJobTote = z.infer<typeof pickJobTote>;

/** One task: the units of one order line to take from one place (a stop may hold several, one per order). */
export const pickTask = z.object({
  taskId: z.number().int(),
  orderId: z.number().int(),
  soNumber: z.string(),
  orderLineId: z.number().int(),
  slot: z.number().int(),
  toteCode: z.string().nullable(),
  quantity: z.number().int(),
  pickedQuantity: z.number().int(),
  shortQuantity: z.number().int(),
  status: z.enum(PICK_TASK_STATUSES),
});
export type PickTask = z.infer<typeof pickTask>;

/** One stop of the pick path: a location and a SKU (and lot), in walking order, with the tasks to drop into totes. */
export const pickStop = z.object({
  seq: z.number().int(),
  locationId: z.number().int(),
  locationCode: z.string(),
  zone: z.string().nullable(),
  skuId: z.number().int(),
  skuCode: z.string(),
  skuDescription: z.string(),
  /** The SKU's UPC and barcodes a scan may match (the package GTINs count as their units). */
  lot: z.string(),
  expiryDate: z.string().nullable(),
  tracksLot: z.boolean(),
  quantity: z.number().int(),
  pickedQuantity: z.number().int(),
  shortQuantity: z.number().int(),
  tasks: z.array(pickTask),
});
export type PickStop = z.infer<typeof pickStop>;

export const pickJobDetail = pickJobSummary.extend({
  totes: z.array(pickJobTote),
  stops: z.array(pickStop),
  /** The last confirmed pick, which UndoPick takes back (null when there is none to undo). */
  lastPick: z.object({ eventId: z.number().int(), taskId: z.number().int(), quantity: z.number().int(), at: z.string() }).nullable(),
});
export type PickJobDetail = z.infer<typeof pickJobDetail>;

export const pickJobFilters = z.object({
  warehouseId: optionalId,
  waveId: optionalId,
  status: z.enum(PICK_JOB_STATUSES).optional(),
  /** Only jobs assigned to this user (the picker's own list: 'me' is the caller). */
  assignedTo: optionalId,
  mine: z.boolean().optional(),
  /** Only the jobs that pick this order (the order drawer's Pick link). */
  orderId: optionalId,
});
export const pickJobListRequest = listRequest(pickJobFilters);
export const pickJobListResponse = listResponse(pickJobSummary);
export const pickJobIdInput = z.object({ jobId: id, reason: field.text(255).optional() });
export const pickJobByIdQuery = z.object({ jobId: field.idParam() });
/** A supervisor assigns a job (userId) or takes it back to Open (userId omitted). */
export const assignPickJobInput = z.object({ jobId: id, userId: optionalId });
/** The picker takes the next open job of the warehouse (oldest priority first); 404 when there is none. */
export const takeNextPickJobInput = z.object({ warehouseId: id });
/** Totes for a job's orders, by slot: each an empty tote location of the warehouse not in another open job. */
export const assignTotesInput = z.object({
  jobId: id,
  totes: z.array(z.object({ slot: field.int(1, MAX_TOTES_PER_JOB), toteCode: code.min(1, 'Scan a tote') })).min(1).max(MAX_TOTES_PER_JOB),
});

// ---- Picking (scan to confirm) ----

export const PICK_SCAN_STEPS = ['location', 'item', 'lot', 'tote'] as const;
export type PickScanStep = (typeof PICK_SCAN_STEPS)[number];

/** Checks one scan of a stop before the next is asked for; nothing is written. */
export const checkPickScanInput = z.object({
  jobId: id,
  stopSeq: field.int(1, INT_MAX),
  step: z.enum(PICK_SCAN_STEPS),
  code: code.min(1, 'Scan a code'),
});
export const checkPickScanResult = z.object({
  ok: z.boolean(),
  /** What a refusal says (shown in red and spoken by the error cue). */
  message: z.string(),
  /** For an item scan: units one scan of this code counts (1, or a package's units). */
  unitsPerScan: z.number().int().optional(),
});
export type CheckPickScanResult = z.infer<typeof checkPickScanResult>;

/**
 * ConfirmPick: the scans of one stop and the quantity, checked again on the server (a wrong scan: 422 naming
 * the field, nothing moved). The quantity is shared over the stop's open tasks in task order (one tote each in a
 * cluster job); more than the stop still needs is refused.
 */
export const confirmPickInput = z.object({
  jobId: id,
  stopSeq: field.int(1, INT_MAX),
  locationCode: code.min(1, 'Scan the location'),
  itemCode: code.min(1, 'Scan the item'),
  lot: field.text(64).trim().optional(),
  quantity: field.int(1, QUANTITY_MAX, 'Enter a quantity of at least 1'),
});
export type ConfirmPickInput = z.infer<typeof confirmPickInput>;
/**
 * ShortPick: the units found at the stop (0 or more, fewer than it needs) are picked; the rest is short. The
 * location gets a spot cycle count; each short line is allocated again elsewhere, or backordered.
 */
export const shortPickInput = confirmPickInput.omit({ quantity: true }).extend({
  /** Needed when units were found (they are picked, so the item is scanned); with none found the location alone will do. */
  itemCode: code.optional(),
  foundQuantity: field.int(0, QUANTITY_MAX),
  reason: field.text(255).trim().optional(),
}).refine((s) => s.foundQuantity === 0 || (s.itemCode ?? '') !== '', { message: 'Scan the item', path: ['itemCode'] });

/** A job's status and progress counts after a picking step (what the job screens total; the stops are not repeated). */
export const pickJobProgress = z.object({
  jobId: z.number().int(),
  jobNumber: z.string(),
  status: z.enum(PICK_JOB_STATUSES),
  assignedTo: z.number().int().nullable(),
  assignedToName: z.string().nullable(),
  stopCount: z.number().int(),
  /** Stops with nothing left to pick (every task picked or short). */
  stopsDone: z.number().int(),
  units: z.number().int(),
  pickedUnits: z.number().int(),
  shortUnits: z.number().int(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
});
export type PickJobProgress = z.infer<typeof pickJobProgress>;

/** An order line as a picking step left it. */
export const pickedOrderLine = z.object({
  orderLineId: z.number().int(),
  orderId: z.number().int(),
  quantity: z.number().int(),
  allocatedQuantity: z.number().int(),
  pickedQuantity: z.number().int(),
});

/**
 * ConfirmPick, ShortPick and UndoPick answer what the step changed, never the whole job (a long job would cost its
 * length on every scan): the job's progress, the stops changed (a short pick's new stops at the end of the path
 * among them) as they now are, the order lines changed, the status of the orders touched, and the caller's pick an
 * UndoPick would take back. The screen merges them into the job it read with GetJob.
 */
export const pickResult = z.object({
  message: z.string(),
  job: pickJobProgress,
  stops: z.array(pickStop),
  lines: z.array(pickedOrderLine),
  orders: z.array(z.object({ orderId: z.number().int(), soNumber: z.string(), status: z.enum(ORDER_STATUSES) })),
  lastPick: pickJobDetail.shape.lastPick,
});
export type PickResult = z.infer<typeof pickResult>;
/** UndoPick: takes back the caller's last confirmed pick of the job (tote back to bin), while the job is not finished. */
export const undoPickInput = z.object({ jobId: id });

// ---- Packing (pack station) ----

export const CARTON_STATUSES = ['Open', 'Closed'] as const;
export type CartonStatus = (typeof CARTON_STATUSES)[number];

/** A carton type of a warehouse: inner dimensions in centimetres, tare weight in kilograms. */
export const cartonType = z.object({
  cartonTypeId: z.number().int(),
  warehouseId: z.number().int(),
  code: z.string(),
  name: z.string(),
  lengthCm: z.number(),
  widthCm: z.number(),
  heightCm: z.number(),
  tareWeightKg: z.number(),
  maxWeightKg: z.number().nullable(),
  isActive: z.boolean(),
});
export type CartonType = z.infer<typeof cartonType>;
const cm = field.decimal(0.1, 1000, 'Enter a size from 0.1 to 1,000 cm');
export const cartonTypeInput = z.object({
  cartonTypeId: optionalId,
  warehouseId: id,
  code: field.text(32).trim().toUpperCase().min(1, 'Please enter a code!'),
  name: field.text(64).trim().min(1, 'Please enter a name!'),
  lengthCm: cm, widthCm: cm, heightCm: cm,
  tareWeightKg: field.decimal(0, 1000, 'Enter a weight from 0 to 1,000 kg'),
  maxWeightKg: field.decimal(0.1, 10_000).nullable().optional(),
  isActive: z.boolean().optional().default(true),
});
export const cartonTypeListRequest = listRequest(z.object({ warehouseId: optionalId, active: z.boolean().optional() }));
export const cartonTypeListResponse = listResponse(cartonType);

export const cartonLine = z.object({ orderLineId: z.number().int(), skuId: z.number().int(), skuCode: z.string(), lot: z.string(), quantity: z.number().int() });
export const carton = z.object({
  cartonId: z.number().int(),
  cartonNumber: z.string(),
  orderId: z.number().int(),
  cartonTypeId: z.number().int(),
  cartonTypeCode: z.string(),
  status: z.enum(CARTON_STATUSES),
  lengthCm: z.number(),
  widthCm: z.number(),
  heightCm: z.number(),
  /** Gross weight (contents and tare), set when closed. */
  weightKg: z.number().nullable(),
  trackingNumber: z.string().nullable(),
  lines: z.array(cartonLine),
  closedAt: z.string().nullable(),
});
export type Carton = z.infer<typeof carton>;

/** The pack station's view of one order: what was picked, what is packed, its cartons. */
export const packOrderView = z.object({
  orderId: z.number().int(),
  soNumber: z.string(),
  referenceNumber: z.string(),
  customerId: z.number().int(),
  customerName: z.string(),
  status: z.enum(ORDER_STATUSES),
  shipToName: z.string().nullable(),
  carrierName: z.string().nullable(),
  carrierService: z.string().nullable(),
  toteCodes: z.array(z.string()),
  lines: z.array(z.object({
    orderLineId: z.number().int(), lineNo: z.number().int(), skuId: z.number().int(), skuCode: z.string(), skuDescription: z.string(),
    lot: z.string(), quantity: z.number().int(), pickedQuantity: z.number().int(), packedQuantity: z.number().int(),
  })),
  cartons: z.array(carton),
});
export type PackOrderView = z.infer<typeof packOrderView>;

/** Opens the pack station on a tote or an order (its SO number or reference), in a warehouse. */
export const openPackInput = z.object({ warehouseId: id, code: code.min(1, 'Scan a tote or an order') });
export const openCartonInput = z.object({ orderId: id, cartonTypeId: field.id('Please select a carton type!') });
/**
 * One scan into an open carton: the item's code (a package GTIN counts its units); quantity multiplies it. Either
 * into a carton open already (cartonId), or into a new carton of a type for the order (orderId and cartonTypeId),
 * opened only when the scan is accepted: a refused first scan leaves no empty carton behind.
 */
export const packItemInput = z.object({
  cartonId: optionalId,
  orderId: optionalId,
  cartonTypeId: optionalId,
  code: code.min(1, 'Scan an item'),
  lot: field.text(64).trim().optional(),
  quantity: field.int(1, QUANTITY_MAX).optional().default(1),
}).refine((p) => p.cartonId !== undefined || (p.orderId !== undefined && p.cartonTypeId !== undefined), {
  message: 'Select an open carton, or an order and a carton type to open one', path: ['cartonId'],
}).refine((p) => p.cartonId === undefined || (p.orderId === undefined && p.cartonTypeId === undefined), {
  message: 'Either an open carton or a carton type to open, not both', path: ['cartonTypeId'],
});
export const unpackItemInput = z.object({ cartonId: id, orderLineId: id, lot: field.text(64).optional().default(''), quantity: field.int(1, QUANTITY_MAX) });
export const closeCartonInput = z.object({
  cartonId: id,
  weightKg: field.decimal(0.001, 10_000, 'Enter the weight in kg'),
  /** The pack station location the packed stock waits at (a staging or dock location); the warehouse's first dock when omitted. */
  locationId: optionalId,
});
export const cartonIdInput = z.object({ cartonId: id });
export const packResult = z.object({ message: z.string(), order: packOrderView });
/**
 * PackItem answers what the scan changed, never the whole order (a long order would cost its length on every scan):
 * the carton packed into (its header; \`opened\` when this scan opened it), the carton line as it now is, and the order
 * line's picked and packed units. The station merges them into the order it read with OpenPack.
 */
export const packItemResult = z.object({
  message: z.string(),
  orderId: z.number().int(),
  carton: carton.omit({ lines: true }),
  opened: z.boolean(),
  cartonLine: cartonLine,
  line: z.object({ orderLineId: z.number().int(), pickedQuantity: z.number().int(), packedQuantity: z.number().int() }),
});
export type PackItemResult = z.infer<typeof packItemResult>;

// ---- Ship confirm ----

/** Ship packed orders: those named, or every packed order of a carrier account in the warehouse. */
export const confirmShipmentInput = z.object({
  warehouseId: id,
  orderIds: z.array(id).min(1).max(1000).optional(),
  carrierAccountId: optionalId,
  /** Tracking numbers by carton, where known. */
  tracking: z.array(z.object({ cartonId: id, trackingNumber: field.text(64).trim().min(1) })).max(10_000).optional(),
}).refine((s) => s.orderIds !== undefined || s.carrierAccountId !== undefined, { message: 'Select orders or a carrier', path: ['orderIds'] });
export const confirmShipmentResult = z.object({
  shipped: z.array(z.object({ orderId: z.number().int(), soNumber: z.string(), shipDate: z.string(), cartons: z.number().int(), units: z.number().int(),
    /** The order taken in for what did not ship (customer allows backorders), when there was any. */
    backorderOrderId: z.number().int().nullable(), backorderSoNumber: z.string().nullable() })),
  refused: z.array(z.object({ orderId: z.number().int(), soNumber: z.string().nullable(), message: z.string() })),
});
export type ConfirmShipmentResult = z.infer<typeof confirmShipmentResult>;

// ---- Printing (/BatchPrint) ----

export const printPickListsInput = z.object({ jobIds: z.array(id).min(1, 'Select at least one job').max(500) });
export const printPackingSlipsInput = z.object({
  orderIds: z.array(id).max(1000).optional(),
  jobIds: z.array(id).max(500).optional(),
  waveId: optionalId,
}).refine((p) => (p.orderIds?.length ?? 0) + (p.jobIds?.length ?? 0) > 0 || !!p.waveId, { message: 'Select orders, jobs or a wave', path: ['orderIds'] });

// ---- Floor events: the activity log labour, productivity, job tracking and billing read ----

/**
 * Every recorded step of warehouse work, one row each (server/src/platform/floor-events.ts). Who records which:
 * the floor (pick…ship), receiving (receive, putaway), inventory (move, count, adjust, replenish), kits (kit-build),
 * shipping (label — amount_minor is the carrier's charge —, void-label, manifest), freight (freight-ship), returns
 * (rma, return-receive, return-inspect, return-dispose with the disposition in detail, manual-ship). A step undone
 * later records its own opposite kind (unpick, unpack, void-label), never deletes: billing credits it.
 */
export const FLOOR_EVENT_KINDS = [
  'pick', 'short', 'unpick', 'pack', 'unpack', 'close-carton', 'ship',
  'receive', 'putaway', 'move', 'count', 'adjust', 'replenish', 'kit-build',
  'label', 'void-label', 'manifest', 'freight-ship',
  'rma', 'return-receive', 'return-inspect', 'return-dispose', 'manual-ship',
] as const;
export type FloorEventKind = (typeof FLOOR_EVENT_KINDS)[number];
