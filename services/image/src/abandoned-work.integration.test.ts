/**
 * Image work stops when nobody waits for it (issue 32, item 6), over real sockets: a client that
 * closes its connections, directly or through the gateway, leaves its queued transforms unrun, and
 * so does the gateway's own timeout. Transforms are counted by the service's `image_transforms_total`
 * (what its metrics port serves), with one transform slot so the others queue behind it.
 */
import { connect, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPortUrl, metaOf, startGateway, type TestGateway } from '../../gateway/src/test-support/upstreams.js';
import { waitFor } from '../../../tests/support/wait-for.js';
import { startImageApp, type TestImageApp } from './test-support/helpers.js';

let image: TestImageApp;
let imageUrl: string;

beforeAll(async () => {
  image = await startImageApp({ IMAGE_CONCURRENCY: '1' });
  imageUrl = await image.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => image?.close());

/** A counter as the metrics port shows it. */
async function scraped(name: string, labels = ''): Promise<number> {
  const text = await image.app.telemetry.metrics.registry.metrics();
  const line = new RegExp(`^${name}\\{[^}]*${labels}[^}]*\\} (\\d+)$`, 'm').exec(text);
  if (!line) throw new Error(`no ${name} in the metrics`);
  return Number(line[1]);
}

/** `count` distinct variants that each keep the one slot busy for a while (a median filter on 1 MP). */
const heavy = (round: string, count: number) =>
  Array.from({ length: count }, (_, i) => `/_ipx/w_${1000 + i}&median_15&q_${round}/images/photo.jpg`);

/** Opens one connection per path and sends its GET; the answers are never read. */
function askAndLeave(port: number, paths: string[]): Socket[] {
  return paths.map((path) => {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => undefined);
    socket.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\nAccept: image/webp\r\n\r\n`);
    return socket;
  });
}

const queued = () => image.images.queue.stats.running + image.images.queue.stats.waiting;
const idle = () => waitFor(() => queued() === 0, 60_000);

async function leaveWhenQueued(port: number, paths: string[]) {
  const before = { transforms: await scraped('image_transforms_total'), dropped: await scraped('image_transforms_abandoned_total', 'stage="waiting"') };
  const sockets = askAndLeave(port, paths);
  await waitFor(() => queued() === paths.length, 20_000);
  for (const socket of sockets) socket.destroy();
  await idle();
  return {
    transforms: (await scraped('image_transforms_total')) - before.transforms,
    dropped: (await scraped('image_transforms_abandoned_total', 'stage="waiting"')) - before.dropped,
  };
}

describe('work nobody waits for', () => {
  it('a client that closes its connections leaves its queued transforms unrun', async () => {
    const { port } = new URL(imageUrl);
    const { transforms, dropped } = await leaveWhenQueued(Number(port), heavy('61', 8));
    // At most the one that had the slot; the seven behind it never ran.
    expect(transforms).toBeLessThanOrEqual(1);
    expect(dropped).toBeGreaterThanOrEqual(7);
  });

  describe('through the gateway', () => {
    /** A gateway to the image service with this upstream timeout, listening on a port of its own. */
    async function gatewayWith(timeoutMs: number): Promise<{ gateway: TestGateway; port: number }> {
      const closed = await closedPortUrl();
      const gateway = await startGateway(
        { RENDERER_URL: closed, ICONS_URL: closed, IMAGE_URL: imageUrl, UPSTREAM_TIMEOUT_MS: String(timeoutMs), RENDER_CACHE: 'false' },
        metaOf('abandoned-work', {}),
      );
      await gateway.app.listen({ port: 0, host: '127.0.0.1' });
      return { gateway, port: (gateway.app.server.address() as AddressInfo).port };
    }
    let patient: { gateway: TestGateway; port: number };
    let hasty: { gateway: TestGateway; port: number };

    beforeAll(async () => {
      [patient, hasty] = await Promise.all([gatewayWith(60_000), gatewayWith(1000)]);
    });
    afterAll(() => Promise.all([patient?.gateway.cleanup(), hasty?.gateway.cleanup()]));

    it('a visitor who leaves ends the upstream request, and its queued transforms are dropped', async () => {
      // A gateway that would wait a minute: only the visitor's leaving can end these.
      const { transforms, dropped } = await leaveWhenQueued(patient.port, heavy('62', 4));
      expect(transforms).toBeLessThanOrEqual(1);
      expect(dropped).toBeGreaterThanOrEqual(3);
    });

    it("the gateway's timeout (504) ends the upstream request, and the transforms queued for it are dropped", async () => {
      const before = await scraped('image_transforms_total');
      const paths = heavy('63', 20);
      const answers = await Promise.all(paths.map(async (path) => (await fetch(`http://127.0.0.1:${hasty.port}${path}`)).status));
      await idle();
      const transforms = (await scraped('image_transforms_total')) - before;
      const served = answers.filter((status) => status === 200).length;
      expect(answers.every((status) => status === 200 || status === 504)).toBe(true);
      expect(answers).toContain(504);
      // What was answered, the transform that had the slot when the timeout came, and the one that
      // may have taken the slot in the instant between a finish and the aborts arriving (sharp can't
      // be interrupted); without the aborts all 20 would run.
      expect(transforms).toBeLessThanOrEqual(served + 2);
      expect(transforms).toBeLessThan(paths.length);
    });
  });
});
