import { describe, expect, it } from 'vitest';
import { burnPasswordCheck, hashPassword, verifyPassword } from './password.js';

const cheap = { N: 1024, r: 8, p: 1 };

describe('password hashing', () => {
  it('verifies the password it hashed and nothing else', async () => {
    const stored = await hashPassword('correct horse', cheap);
    expect(await verifyPassword('correct horse', stored)).toBe(true);
    expect(await verifyPassword('correct horsE', stored)).toBe(false);
    expect(await verifyPassword('', stored)).toBe(false);
  });

  it('salts: the same password hashes differently twice', async () => {
    expect(await hashPassword('same', cheap)).not.toBe(await hashPassword('same', cheap));
  });

  it('treats a malformed or foreign hash as a mismatch, not a crash', async () => {
    for (const stored of ['', 'plain', 'bcrypt$2b$10$abc', 'scrypt$0$8$1$c2FsdA$a2V5', 'scrypt$1024$8$1$c2FsdA$short']) {
      expect(await verifyPassword('x', stored)).toBe(false);
    }
  });

  it('costs as much for an unknown email as a real check does', async () => {
    const cost = { N: 4096, r: 8, p: 1 };
    const stored = await hashPassword('pw', cost);
    const time = async (run: () => Promise<unknown>) => {
      const started = performance.now();
      await run();
      return performance.now() - started;
    };
    await burnPasswordCheck('warm', cost);
    const real: number[] = [];
    const burnt: number[] = [];
    // Interleaved rounds and medians, so a busy machine slows both sides alike.
    for (let i = 0; i < 9; i++) {
      real.push(await time(() => verifyPassword('guess', stored)));
      burnt.push(await time(() => burnPasswordCheck('guess', cost)));
    }
    const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    const ratio = median(burnt) / median(real);
    expect(ratio).toBeGreaterThan(0.5);
    expect(ratio).toBeLessThan(2);
  });
});
