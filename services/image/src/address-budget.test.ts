import { describe, expect, it } from 'vitest';
import { AddressBudget } from './address-budget.js';
import { spendingKey } from './client-address.js';
import { startImageApp } from './test-support/helpers.js';

/** A budget on a clock the test moves: 1,000 ms of transforms per 10 s, 2 jobs at once. */
function budgetAt(options: Partial<ConstructorParameters<typeof AddressBudget>[0]> = {}) {
  const clock = { now: 0 };
  const budget = new AddressBudget(
    { budgetMs: 1000, windowMs: 10_000, concurrency: 2, maxAddresses: 100, retryAfterS: 3, ...options },
    () => clock.now,
  );
  return { budget, clock };
}

const refusal = (work: () => unknown) => {
  try {
    work();
  } catch (error) {
    return error as { statusCode: number; code: string; headers: Record<string, string> };
  }
  throw new Error('expected a refusal');
};

describe('what one address may spend on new variants', () => {
  it('admits while the bucket holds something, charges what a transform cost, and says when to come back', () => {
    const { budget, clock } = budgetAt();
    const ticket = budget.admit('203.0.113.7');
    ticket.charge(1500);
    ticket.done();
    // 500 ms in debt: at 100 ms per second, 6 s until the bucket holds something again.
    const spent = refusal(() => budget.admit('203.0.113.7'));
    expect(spent).toMatchObject({ statusCode: 429, code: 'IMAGE_ADDRESS_SPENT', headers: { 'retry-after': '6' } });
    // Another address is untouched.
    expect(() => budget.admit('203.0.113.8').done()).not.toThrow();
    clock.now = 5_000;
    expect(refusal(() => budget.admit('203.0.113.7')).headers['retry-after']).toBe('1');
    clock.now = 5_001;
    expect(() => budget.admit('203.0.113.7')).not.toThrow();
    expect(budget.stats.refused).toBe(2);
  });

  it('caps the jobs of one address at once, and frees a place when one ends', () => {
    const { budget } = budgetAt();
    const first = budget.admit('198.51.100.1');
    budget.admit('198.51.100.1');
    expect(refusal(() => budget.admit('198.51.100.1'))).toMatchObject({
      statusCode: 429,
      code: 'IMAGE_ADDRESS_BUSY',
      headers: { 'retry-after': '3' },
    });
    first.done();
    first.done();
    expect(() => budget.admit('198.51.100.1')).not.toThrow();
    expect(refusal(() => budget.admit('198.51.100.1')).code).toBe('IMAGE_ADDRESS_BUSY');
  });

  it('never refills beyond one window of budget', () => {
    const { budget, clock } = budgetAt();
    budget.admit('192.0.2.1').done();
    clock.now = 1_000_000;
    const ticket = budget.admit('192.0.2.1');
    ticket.charge(1001);
    ticket.done();
    expect(refusal(() => budget.admit('192.0.2.1')).code).toBe('IMAGE_ADDRESS_SPENT');
  });

  it('remembers a bounded number of addresses', () => {
    const { budget } = budgetAt({ maxAddresses: 3 });
    for (let i = 0; i < 50; i++) budget.admit(`10.0.0.${i}`).done();
    expect(budget.stats.addresses).toBe(3);
  });
});

describe('the address a client spends under', () => {
  it.each([
    ['203.0.113.7', '203.0.113.7'],
    ['::ffff:203.0.113.7', '203.0.113.7'],
    ['2001:db8:1:2:3:4:5:6', '2001:db8:1:2::/64'],
    ['2001:db8:1:2::9', '2001:db8:1:2::/64'],
    ['2001:DB8:0001:0002:ffff::1', '2001:db8:1:2::/64'],
    ['2001:db8::1', '2001:db8:0:0::/64'],
    ['::1', '0:0:0:0::/64'],
    ['64:ff9b:1::1.2.3.4', '64:ff9b:1:0::/64'],
  ])('%s spends as %s', (address, key) => {
    expect(spendingKey(address)).toBe(key);
  });
});

describe('the service with a budget per address', () => {
  it('answers 429 with Retry-After to an address over its budget, serves another, and never limits cached variants', async () => {
    // One millisecond of transforms per minute: the first new variant overdraws it.
    const t = await startImageApp({ IMAGE_ADDRESS_BUDGET_MS: '1' });
    const from = (address: string, url: string, headers: Record<string, string> = {}) =>
      t.app.inject({ url, headers: { 'x-forwarded-for': address, accept: 'image/webp,*/*', ...headers } });
    try {
      const first = await from('203.0.113.1', '/_ipx/w_300&median_5/images/photo.jpg');
      expect([first.statusCode, first.headers['x-image-cache']]).toEqual([200, 'MISS']);

      const refused = await from('203.0.113.1', '/_ipx/w_310/images/photo.jpg', { accept: 'application/json' });
      expect(refused.statusCode).toBe(429);
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(refused.headers['cache-control']).toBe('no-store');
      expect(refused.json()).toMatchObject({ statusCode: 429, code: 'IMAGE_ADDRESS_SPENT', url: '/_ipx/w_310/images/photo.jpg' });

      const other = await from('198.51.100.2', '/_ipx/w_310/images/photo.jpg');
      expect([other.statusCode, other.headers['x-image-cache']]).toEqual([200, 'MISS']);

      // Cached variants, its own and the one the other address made, and a 304, cost nothing.
      for (const url of ['/_ipx/w_300&median_5/images/photo.jpg', '/_ipx/w_310/images/photo.jpg']) {
        const hit = await from('203.0.113.1', url);
        expect([hit.statusCode, hit.headers['x-image-cache']]).toEqual([200, 'HIT']);
      }
      const notModified = await from('203.0.113.1', '/_ipx/w_310/images/photo.jpg', { 'if-none-match': other.headers.etag as string });
      expect(notModified.statusCode).toBe(304);
      expect(t.images.metrics.transforms).toBe(2);
      const scraped = await t.app.telemetry.metrics.registry.metrics();
      expect(scraped).toMatch(/^image_address_refusals_total\{[^}]*\} 1$/m);
    } finally {
      await t.close();
    }
  });

  it('caps the new variants one address has at once', async () => {
    const t = await startImageApp({ IMAGE_ADDRESS_CONCURRENCY: '2', IMAGE_CONCURRENCY: '1' });
    try {
      const urls = [300, 310, 320, 330, 340].map((w) => `/_ipx/w_${w}&median_5/images/photo.jpg`);
      const answers = await Promise.all(urls.map((url) => t.app.inject({ url, headers: { 'x-forwarded-for': '203.0.113.9' } })));
      // Which two come first depends on their file reads; two are served, three refused.
      expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 200, 429, 429, 429]);
      const refused = answers.find((a) => a.statusCode === 429)!;
      expect(refused.json()).toMatchObject({ code: 'IMAGE_ADDRESS_BUSY' });
      expect(refused.headers['retry-after']).toBe('2');
    } finally {
      await t.close();
    }
  });
});
