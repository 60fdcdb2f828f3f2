/**
 * The contract every UserStore passes: `create(scope)` gives a store; stores of one scope share
 * their users (the server and `npm run users`), stores of different scopes see nothing of each other.
 */
import { describe, expect, it } from 'vitest';
import type { UserStore } from './types.js';
import { UserExistsError } from './types.js';
import { scopedStores } from '../../../../../tests/support/store-contract.js';

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

    it('removes a user with their saved list: they cannot sign in, and their email is free again', async () => {
      const store = await fresh();
      const gone = await store.add({ email: 'gone@example.com', name: 'Gone', password: 'leaving today' });
      const kept = await store.add({ email: 'kept@example.com', name: 'Kept', password: 'staying here' });
      await store.save(gone.id, 'git-undo');
      await store.save(kept.id, 'docker-prune');
      expect(await store.remove(gone.id)).toBe(true);
      expect(await store.remove(gone.id)).toBe(false);
      expect(await store.remove('nobody')).toBe(false);
      expect(await store.get(gone.id)).toBeNull();
      expect(await store.findByEmail('gone@example.com')).toBeNull();
      expect(await store.verify('gone@example.com', 'leaving today')).toBeNull();
      expect(await store.saved(gone.id)).toEqual([]);
      expect((await store.dump()).users.map((u) => u.email)).toEqual(['kept@example.com']);
      expect(await store.verify('kept@example.com', 'staying here')).toEqual(kept);
      expect(await store.saved(kept.id)).toEqual(['docker-prune']);
      const again = await store.add({ email: 'gone@example.com', name: 'Back', password: 'a new start' });
      expect(again.id).not.toBe(gone.id);
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

    it('dumps every user with the password hash and saved list; another store restores them whole', async () => {
      const source = await fresh();
      const ada = await source.add({ email: 'ada@example.com', name: 'Ada', password: 'analytical engine' });
      const bob = await source.add({ email: 'bob@example.com', name: 'Bob', password: 'builder of things' });
      await source.save(ada.id, 'git-undo');
      await pause(5);
      await source.save(ada.id, 'docker-prune');
      const dump = await source.dump();
      expect(dump.version).toBe(1);
      expect(dump.users.map((u) => u.email).sort()).toEqual(['ada@example.com', 'bob@example.com']);
      expect(dump.users.every((u) => u.passwordHash.startsWith('scrypt$'))).toBe(true);
      expect(JSON.stringify(dump)).not.toContain('analytical engine');
      expect(dump.saved[ada.id]?.map((e) => e.recipeId)).toEqual(['docker-prune', 'git-undo']);

      const target = await fresh();
      expect(await target.restore(dump)).toEqual({ added: expect.arrayContaining(['ada@example.com', 'bob@example.com']), skipped: [] });
      expect(await target.verify('ada@example.com', 'analytical engine')).toEqual(ada);
      expect(await target.verify('bob@example.com', 'builder of things')).toEqual(bob);
      expect(await target.saved(ada.id)).toEqual(['docker-prune', 'git-undo']);
    });

    it('restores nobody over a user it has: a taken email or id is skipped, and a second import adds nobody', async () => {
      const source = await fresh();
      const ada = await source.add({ email: 'ada@example.com', name: 'Ada', password: 'analytical engine' });
      const target = await fresh();
      const local = await target.add({ email: 'ADA@example.com', name: 'Local Ada', password: 'another password' });
      await target.save(local.id, 'kept');
      const dump = await source.dump();
      dump.saved[ada.id] = [{ recipeId: 'imported', savedAt: 1 }];
      expect(await target.restore(dump)).toEqual({ added: [], skipped: ['ada@example.com'] });
      expect(await target.verify('ada@example.com', 'another password')).toEqual(local);
      expect(await target.saved(local.id)).toEqual(['kept']);

      const again = await fresh();
      expect((await again.restore(dump)).added).toEqual(['ada@example.com']);
      expect(await again.restore(dump)).toEqual({ added: [], skipped: ['ada@example.com'] });
      expect(await again.saved(ada.id)).toEqual(['imported']);
    });
  });
}
