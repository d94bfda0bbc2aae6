import { describe, expect, it } from 'vitest';
import { advisedWaitMs, backoffMs, decideRetry, isRetryableConnectionCode, isRetryableStatus, type RetryInput } from '../../src/api/retry-policy.js';

const NOW = Date.parse('2026-11-21T12:00:00Z');
const input = (overrides: Partial<RetryInput>): RetryInput => ({
  retriesDone: 0,
  maxRetries: 2,
  status: 500,
  headers: {},
  now: NOW,
  random: () => 0,
  ...overrides,
});

describe('isRetryableStatus', () => {
  it.each([
    [408, true], [409, true], [429, true], [500, true], [502, true], [503, true], [599, true],
    [400, false], [401, false], [403, false], [404, false], [422, false],
  ])('%i → %s', (status, expected) => {
    expect(isRetryableStatus(status, {})).toBe(expected);
  });

  it('x-should-retry overrides the status in both directions', () => {
    expect(isRetryableStatus(400, { 'x-should-retry': 'true' })).toBe(true);
    expect(isRetryableStatus(503, { 'x-should-retry': 'false' })).toBe(false);
  });
});

describe('isRetryableConnectionCode', () => {
  it.each([
    ['ECONNREFUSED', true], ['ECONNRESET', true], ['UND_ERR_SOCKET', true], ['UND_ERR_CONNECT_TIMEOUT', true], ['EAI_AGAIN', true],
    ['ENOTFOUND', false], ['UND_ERR_HEADERS_TIMEOUT', false], ['CERT_HAS_EXPIRED', false], [undefined, false],
  ])('%s → %s', (code, expected) => {
    expect(isRetryableConnectionCode(code)).toBe(expected);
  });
});

describe('advisedWaitMs', () => {
  it.each([
    [{ 'retry-after-ms': '1500' }, 1500],
    [{ 'retry-after-ms': '250.5' }, 250.5],
    [{ 'retry-after': '3' }, 3000],
    [{ 'retry-after': '0.5' }, 500],
    [{ 'retry-after-ms': '100', 'retry-after': '9' }, 100],
    [{ 'retry-after': 'Sat, 21 Nov 2026 12:00:05 GMT' }, 5000],
    [{ 'retry-after': 'Sat, 21 Nov 2026 11:59:00 GMT' }, 0],
    [{ 'retry-after': 'soon' }, undefined],
    [{ 'retry-after-ms': 'abc' }, undefined],
    [{}, undefined],
  ])('%j → %s', (headers, expected) => {
    expect(advisedWaitMs(headers, NOW)).toBe(expected);
  });
});

describe('backoffMs', () => {
  it('doubles from 0.5 s to a cap of 8 s without jitter', () => {
    expect([0, 1, 2, 3, 4, 5, 8].map((n) => backoffMs(n, () => 0))).toEqual([500, 1000, 2000, 4000, 8000, 8000, 8000]);
  });
  it('jitter takes off at most a quarter', () => {
    expect(backoffMs(0, () => 1)).toBe(375);
    expect(backoffMs(4, () => 0.5)).toBe(7000);
  });
});

describe('decideRetry', () => {
  it('retries a 503 with backoff', () => {
    expect(decideRetry(input({ status: 503 }))).toEqual({ retry: true, delayMs: 500 });
    expect(decideRetry(input({ status: 503, retriesDone: 1 }))).toEqual({ retry: true, delayMs: 1000 });
  });
  it('stops when the retries are used up', () => {
    expect(decideRetry(input({ status: 503, retriesDone: 2 }))).toEqual({ retry: false, reason: 'exhausted' });
    expect(decideRetry(input({ status: 429, maxRetries: 0 }))).toEqual({ retry: false, reason: 'exhausted' });
  });
  it('does not retry a 400', () => {
    expect(decideRetry(input({ status: 400 }))).toEqual({ retry: false, reason: 'not-retryable' });
  });
  it('waits what the service asks for', () => {
    expect(decideRetry(input({ status: 429, headers: { 'retry-after-ms': '1234' } }))).toEqual({ retry: true, delayMs: 1234 });
    expect(decideRetry(input({ status: 429, headers: { 'retry-after': '60' } }))).toEqual({ retry: true, delayMs: 60_000 });
  });
  it('refuses a wait over 60 s and reports it, even with retries left', () => {
    expect(decideRetry(input({ status: 429, headers: { 'retry-after': '61' } }))).toEqual({ retry: false, reason: 'wait-too-long', waitMs: 61_000 });
  });
  it('retries connection failures but not DNS misses or timeouts', () => {
    expect(decideRetry(input({ status: undefined, errorCode: 'ECONNRESET' }))).toEqual({ retry: true, delayMs: 500 });
    expect(decideRetry(input({ status: undefined, errorCode: 'ENOTFOUND' }))).toEqual({ retry: false, reason: 'not-retryable' });
    expect(decideRetry(input({ status: undefined, errorCode: 'UND_ERR_HEADERS_TIMEOUT' }))).toEqual({ retry: false, reason: 'not-retryable' });
  });
});
