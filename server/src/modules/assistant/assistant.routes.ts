import {
  apiErrorSchema, askAnswer, askRequest, orderAnalysisAnswer, orderAnalysisRequest, orderTypeCountsAnswer, warehouseClientsAnswer,
  warehouseClientsRequest, warehousesAnswer,
} from '@bolx/contracts';
import { principalOf, type RoutePolicy } from '../../plugins/access.js';
import { authErrors, type RouteModule } from '../../http.js';

// The chat is in every signed-in shell; what it answers is held to the caller's scope, so no module is needed.
const policy: RoutePolicy = { access: 'authenticated', scope: 'tenant' };
const errors = { ...authErrors, 422: apiErrorSchema };

/** The chat assistant host (spec section 7), under /API with the spec's snake_case names. */
export const assistantRoutes: RouteModule = (api, { assistant }) => {
  const tags = ['Assistant'];
  api.get('/API/warehouses', {
    schema: { tags, summary: 'The names of the warehouses the caller may ask about', response: { 200: warehousesAnswer, ...errors } },
    config: { policy },
  }, (req) => assistant.warehouses(principalOf(req)));
  api.post('/API/warehouse-clients', {
    schema: { tags, summary: 'The clients of a warehouse the caller may ask about, sorted by name', body: warehouseClientsRequest, response: { 200: warehouseClientsAnswer, ...errors } },
    config: { policy },
  }, (req) => assistant.clients(principalOf(req), req.body.warehouse_name));
  api.post('/API/order-analysis', {
    schema: { tags, summary: 'One figure (or rows of figures) of a client’s orders or receiving orders over a period', body: orderAnalysisRequest, response: { 200: orderAnalysisAnswer, ...errors } },
    config: { policy },
  }, (req) => assistant.analysis(principalOf(req), req.body));
  api.post('/API/order-type-counts', {
    schema: { tags, summary: 'The chart of a query: a bar per day for each order type', body: orderAnalysisRequest, response: { 200: orderTypeCountsAnswer, ...errors } },
    config: { policy },
  }, (req) => assistant.typeCounts(principalOf(req), req.body));
  api.post('/API/ask', {
    schema: { tags, summary: 'A question in the user’s own words, read by a local grammar and answered with the same queries', body: askRequest, response: { 200: askAnswer, ...errors } },
    config: { policy },
  }, (req) => assistant.ask(principalOf(req), req.body));
};
