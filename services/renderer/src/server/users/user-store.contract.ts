/**
 * The contract every UserStore passes: `create(scope)` gives a store; stores of one scope share
 * their users (the server and `npm run users`), stores of different scopes see nothing of each other.
 */
import { describe, expect, it } from 'vitest';
import type { UserStore } from './types.js';
import { UserExistsError } from './types.js';
import { scopedStores } from '../../../../../lib/store-contract.js';

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function describeUserStore(name: string, create: (scope: string) => Promise<UserStore>): void {
  describe(`UserStore contract: ${name}`, () => {
    const fresh = scopedStores(create);

    it('adds a user and finds it by id and by email in any case', async () => {
      const store = await fresh();
      const user = await store.add({ email: ' Ada@Example.com ', name: ' Ada ', password: 'analytical engine' });
      expect(user).toEqual({ id: expect.any(String), email: 'ada@example.com', name: 'Ada', createdAt: expect.any(String) });
      expect(user).not.toHaveProperty('passwordHash');
      expect(await store.get(user.id)).toEqual(user);
      expect(await store.findByEmail('ADA@example.COM')).toEqual(user);
      expect(await store.get('nobody')).toBeNull();
      expect(await store.findByEmail('nobody@example.com')).toBeNull();
      expect(await store.ping()).toBe(true);
    });

    it('refuses a second user with the same email', async () => {
      const store = await fresh();
      await store.add({ email: 'grace@example.com', name: 'Grace', password: 'cobol-1959' });
      await expect(store.add({ email: 'GRACE@example.com', name: 'Other', password: 'something else' })).rejects.toBeInstanceOf(
        UserExistsError,
      );
    });

    it('verifies the right password only', async () => {
      const store = await fresh();
      const user = await store.add({ email: 'alan@example.com', name: 'Alan', password: 'enigma machine' });
      expect(await store.verify('Alan@Example.com', 'enigma machine')).toEqual(user);
      expect(await store.verify('alan@example.com', 'enigma machinE')).toBeNull();
      expect(await store.verify('alan@example.com', '')).toBeNull();
      expect(await store.verify('unknown@example.com', 'enigma machine')).toBeNull();
    });

    it('salts each hash: two users with one password do not share a hash', async () => {
      const store = await fresh();
      const a = await store.add({ email: 'a@example.com', name: 'A', password: 'same password' });
      const b = await store.add({ email: 'b@example.com', name: 'B', password: 'same password' });
      expect(await store.verify('a@example.com', 'same password')).toEqual(a);
      expect(await store.verify('b@example.com', 'same password')).toEqual(b);
    });

    it('saves, lists (most recent first) and unsaves recipes, once each', async () => {
      const store = await fresh();
      const user = await store.add({ email: 'cook@example.com', name: 'Cook', password: 'mise en place' });
      expect(await store.saved(user.id)).toEqual([]);
      expect(await store.save(user.id, 'git-undo')).toBe(true);
      await pause(5);
      expect(await store.save(user.id, 'docker-prune')).toBe(true);
      expect(await store.save(user.id, 'git-undo')).toBe(false);
      expect(await store.saved(user.id)).toEqual(['docker-prune', 'git-undo']);
      expect(await store.unsave(user.id, 'git-undo')).toBe(true);
      expect(await store.unsave(user.id, 'git-undo')).toBe(false);
      expect(await store.saved(user.id)).toEqual(['docker-prune']);
    });

    it('shares users and saved recipes between stores of one scope, not across scopes', async () => {
      const writer = await fresh('shared');
      const reader = await fresh('shared');
      const other = await fresh();
      const user = await writer.add({ email: 'shared@example.com', name: 'Shared', password: 'one two three' });
      await writer.save(user.id, 'a-recipe');
      expect(await reader.verify('shared@example.com', 'one two three')).toEqual(user);
      expect(await reader.saved(user.id)).toEqual(['a-recipe']);
      expect(await other.findByEmail('shared@example.com')).toBeNull();
    });
  });
}
