import { describe, expect, it } from 'vitest';
import { detailsFromBody, errorToastText, formFieldErrors, toApiError } from './api-error';

describe('error mapper', () => {
  it('takes details from a string body', () => {
    expect(toApiError({ status: 502, data: 'Bad gateway' })).toEqual({ type: 'API_ERROR', status: 502, message: 'Bad gateway', details: 'Bad gateway' });
    expect(toApiError({ status: 'PARSING_ERROR', originalStatus: 504, data: 'Gateway Timeout', error: 'SyntaxError' })).toMatchObject({
      status: 504, details: 'Gateway Timeout',
    });
  });
  it('takes details from a message field (the server shape)', () => {
    expect(toApiError({ status: 400, data: { status: 400, message: 'Please enter password!', details: { password: 'Please enter password!' } } })).toEqual({
      type: 'API_ERROR', status: 400, message: 'Please enter password!', details: 'Please enter password!', fields: { password: 'Please enter password!' },
    });
  });
  it('turns the server’s field messages into form fields, dotted paths into name paths', () => {
    const error = toApiError({ status: 422, data: { message: 'Not enough', details: { 'lines.1.quantity': 'At most 3 available', proNumber: 'Used' } } });
    expect(formFieldErrors(error)).toEqual([{ name: ['lines', 1, 'quantity'], errors: ['At most 3 available'] }, { name: ['proNumber'], errors: ['Used'] }]);
    expect(formFieldErrors(error, (name) => name[0] === 'proNumber')).toEqual([{ name: ['proNumber'], errors: ['Used'] }]);
    expect(formFieldErrors(toApiError({ status: 409, data: { message: 'No' } }))).toEqual([]);
  });
  it('takes details from details.message, an errors list or an errors object', () => {
    expect(detailsFromBody({ details: { message: 'Nested' } })).toBe('Nested');
    expect(detailsFromBody({ errors: ['One', 'Two'] })).toBe('One, Two');
    expect(detailsFromBody({ errors: [{ message: 'A' }, { message: 'B' }] })).toBe('A, B');
    expect(detailsFromBody({ errors: { name: ['Required'], city: 'Too long' } })).toBe('Required, Too long');
  });
  it('maps no response to status 0', () => {
    expect(toApiError({ status: 'FETCH_ERROR', error: 'TypeError: Failed to fetch' })).toEqual({
      type: 'API_ERROR', status: 0, message: 'No response from server', details: 'Request was made but no response received',
    });
    expect(toApiError({ status: 'TIMEOUT_ERROR', error: 'timeout' }).status).toBe(0);
  });
  it('maps other client errors to 500', () => {
    expect(toApiError(new Error('Boom'))).toEqual({ type: 'API_ERROR', status: 500, message: 'Boom', details: 'Unexpected error occurred' });
    expect(toApiError(undefined)).toEqual({ type: 'API_ERROR', status: 500, message: 'Client error', details: 'Unexpected error occurred' });
    expect(toApiError({ status: 'CUSTOM_ERROR', error: '' })).toMatchObject({ status: 500, message: 'Client error' });
  });
  it('keeps Retry-After seconds of a 429', () => {
    expect(toApiError({ status: 429, data: { message: 'Too many attempts', retryAfterSeconds: 30 } })).toMatchObject({ status: 429, retryAfterSeconds: 30 });
  });
  it('passes an API_ERROR through', () => {
    const e = { type: 'API_ERROR' as const, status: 404, message: 'Not found', details: 'GET /x' };
    expect(toApiError(e)).toBe(e);
  });
  it("writes mutation error toasts as 'Error: ' + details", () => {
    expect(errorToastText(toApiError({ status: 409, data: { message: 'Already exists' } }))).toBe('Error: Already exists');
  });
});
