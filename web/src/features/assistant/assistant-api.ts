import type { AskAnswer, AskRequest, OrderAnalysisAnswer, OrderAnalysisRequest, OrderTypeCountsAnswer } from '@bolx/contracts';
import { baseApi } from '../../lib/api/base-api';

/** The chat assistant host (spec section 7). Its answers are per question, so nothing is cached between asks. */
export const assistantApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getAssistantWarehouses: build.mutation<{ warehouses: string[] }, void>({ query: () => ({ url: 'API/warehouses', headers: { Accept: 'application/json' } }) }),
    getWarehouseClients: build.mutation<{ clients: { name: string }[] }, { warehouse_name: string }>({ query: (body) => ({ url: 'API/warehouse-clients', method: 'POST', body }) }),
    orderAnalysis: build.mutation<OrderAnalysisAnswer, OrderAnalysisRequest>({ query: (body) => ({ url: 'API/order-analysis', method: 'POST', body }) }),
    orderTypeCounts: build.mutation<OrderTypeCountsAnswer, OrderAnalysisRequest>({ query: (body) => ({ url: 'API/order-type-counts', method: 'POST', body }) }),
    askQuestion: build.mutation<AskAnswer, AskRequest>({ query: (body) => ({ url: 'API/ask', method: 'POST', body }) }),
  }),
});

export const {
  useGetAssistantWarehousesMutation, useGetWarehouseClientsMutation, useOrderAnalysisMutation, useOrderTypeCountsMutation, useAskQuestionMutation,
} = assistantApi;
