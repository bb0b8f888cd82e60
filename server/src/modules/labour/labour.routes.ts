import { z } from 'zod';
import {
  apiErrorSchema, field, INT_MAX, labourPunchInput, labourRate, labourShift, labourShiftsQuery, labourStandard, mutationResult, saveLabourRateInput,
  saveLabourStandardsInput, STAFF_ROLES,
} from '@bolx/contracts';
import { actorOf, principalOf } from '../../plugins/access.js';
import { authErrors, type RouteModule } from '../../http.js';

const errors = { ...authErrors, 409: apiErrorSchema, 422: apiErrorSchema };
const read = { access: 'authenticated' as const, module: { key: 'Labor', permission: 'read' as const }, scope: 'tenant' as const };
const write = { access: 'authenticated' as const, module: { key: 'Labor', permission: 'write' as const }, scope: 'tenant' as const };

export const labourRoutes: RouteModule = (api, { labour }) => {
  const tags = ['Labor'];
  api.post('/Warehouse/Labor/Punch', {
    schema: { tags, summary: 'Clock in or out, start or end a break (for oneself; for another user with Labor write)', body: labourPunchInput, response: { 200: mutationResult(labourShift.nullable()), ...errors } },
    // Every member of staff clocks in, whatever modules they hold.
    config: { policy: { access: 'authenticated', roles: STAFF_ROLES, scope: 'tenant' } },
  }, (req) => labour.punch(principalOf(req), req.body, actorOf(req)));
  api.get('/Warehouse/Labor/GetShifts', {
    schema: { tags, summary: 'Shifts of the warehouses in scope (open=true: who is clocked in now)', querystring: labourShiftsQuery, response: { 200: z.array(labourShift), ...errors } },
    config: { policy: read },
  }, (req) => labour.shifts(principalOf(req), { warehouseId: req.query.warehouseId || undefined, openOnly: req.query.open === 'true' }));
  api.get('/Warehouse/Labor/GetStandards', {
    schema: { tags, summary: 'Engineered standards per task type of a warehouse', querystring: z.object({ warehouseId: field.idParam() }), response: { 200: z.array(labourStandard), ...errors } },
    config: { policy: read },
  }, (req) => labour.standards(principalOf(req), req.query.warehouseId) as never);
  api.post('/Warehouse/Labor/SaveStandards', {
    schema: { tags, summary: 'Set engineered standards (units or steps per hour) per task type', body: saveLabourStandardsInput, response: { 200: mutationResult(z.array(labourStandard)), ...errors } },
    config: { policy: write },
  }, (req) => labour.saveStandards(principalOf(req), req.body, actorOf(req)) as never);
  api.get('/Warehouse/Labor/GetRates', {
    schema: { tags, summary: 'Labour rate per client (minor units per hour)', querystring: z.object({ customerId: field.intParam(0, INT_MAX).optional() }), response: { 200: z.array(labourRate), ...errors } },
    config: { policy: read },
  }, (req) => labour.rates(principalOf(req), req.query.customerId));
  api.post('/Warehouse/Labor/SaveRate', {
    schema: { tags, summary: 'Set a client’s labour rate (minor units per hour)', body: saveLabourRateInput, response: { 200: mutationResult(labourRate.nullable()), ...errors } },
    config: { policy: write },
  }, (req) => labour.saveRate(principalOf(req), req.body, actorOf(req)));
};
