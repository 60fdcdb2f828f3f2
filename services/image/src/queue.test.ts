import { afterEach, describe, expect, it, vi } from 'vitest';
import { JobQueue } from './job-queue.js';
import { startImageApp } from './test-support/helpers.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('job queue', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('runs at most `concurrency` jobs and refuses beyond the queue with 503', async () => {
    vi.useFakeTimers();
    const queue = new JobQueue({ concurrency: 2, queueSize: 1, timeoutMs: 5000, retryAfterSeconds: 3 });
    let running = 0;
    let peak = 0;
    const job = async () => {
      running++;
      peak = Math.max(peak, running);
      await sleep(30);
      running--;
      return 'done';
    };
    const settled = Promise.allSettled([1, 2, 3, 4, 5].map(() => queue.run(job)));
    await vi.advanceTimersByTimeAsync(60);
    const results = await settled;
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(3);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(refused).toHaveLength(2);
    expect(refused[0]!.reason).toMatchObject({
      statusCode: 503,
      code: 'IMAGE_BUSY',
      headers: { 'retry-after': '3' },
      data: { retryAfter: 3 },
    });
    expect(peak).toBe(2);
    expect(queue.stats).toEqual({ running: 0, waiting: 0, rejected: 2, dropped: 0 });
  });

  it('drops a waiting job whose signal aborts: it never runs, and the next one takes the slot', async () => {
    vi.useFakeTimers();
    const queue = new JobQueue({ concurrency: 1, queueSize: 5, timeoutMs: 5000, retryAfterSeconds: 1 });
    const ran: string[] = [];
    const job = (name: string) => async () => {
      ran.push(name);
      await sleep(30);
      return name;
    };
    const left = new AbortController();
    const first = queue.run(job('first'));
    const abandoned = queue.run(job('abandoned'), left.signal);
    const last = queue.run(job('last'), new AbortController().signal);
    expect(queue.stats.waiting).toBe(2);
    left.abort();
    await expect(abandoned).rejects.toMatchObject({ statusCode: 499, code: 'IMAGE_ABANDONED' });
    expect(queue.stats).toMatchObject({ running: 1, waiting: 1, dropped: 1 });
    await vi.advanceTimersByTimeAsync(60);
    expect(await Promise.all([first, last])).toEqual(['first', 'last']);
    expect(ran).toEqual(['first', 'last']);
    await expect(queue.run(job('late'), AbortSignal.abort())).rejects.toMatchObject({ code: 'IMAGE_ABANDONED' });
    expect(queue.stats).toEqual({ running: 0, waiting: 0, rejected: 0, dropped: 1 });
  });

  it('answers a job over its time limit with 503 but keeps the slot until it ends', async () => {
    vi.useFakeTimers();
    const queue = new JobQueue({ concurrency: 1, queueSize: 5, timeoutMs: 20, retryAfterSeconds: 1 });
    const slow = queue.run(() => sleep(80));
    const refused = expect(slow).rejects.toMatchObject({ statusCode: 503 });
    await vi.advanceTimersByTimeAsync(20);
    await refused;
    expect(queue.stats.running).toBe(1);
    await vi.advanceTimersByTimeAsync(60);
    expect(queue.stats.running).toBe(0);
  });
});

describe('the service under overload', () => {
  it('answers 503 with Retry-After when the queue is full, and recovers', async () => {
    const t = await startImageApp({ IMAGE_CONCURRENCY: '1', IMAGE_QUEUE_SIZE: '1', IMAGE_RETRY_AFTER_S: '7' });
    try {
      const urls = [300, 310, 320, 330, 340, 350].map((w) => `/_ipx/w_${w}&median_9/images/photo.jpg`);
      const responses = await Promise.all(urls.map((url) => t.app.inject(url)));
      const busy = responses.filter((r) => r.statusCode === 503);
      expect(busy.length).toBeGreaterThan(0);
      expect(busy[0]!.headers['retry-after']).toBe('7');
      expect(busy[0]!.json()).toMatchObject({ statusCode: 503 });
      expect(responses.filter((r) => r.statusCode === 200).length).toBeGreaterThanOrEqual(2);
      expect((await t.app.inject(urls[5]!)).statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('a transform over the job time limit is 503, and the service goes on', async () => {
    const t = await startImageApp({ IMAGE_JOB_TIMEOUT_MS: '1' });
    try {
      const res = await t.app.inject('/_ipx/w_1000&median_25&sharpen_5/images/photo.jpg');
      expect(res.statusCode).toBe(503);
      expect(res.json().message).toMatch(/too long/);
    } finally {
      await t.close();
    }
  });
});
