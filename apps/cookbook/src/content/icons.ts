/** Checks that an Iconify name (`collection:name`) exists in @iconify/json, aliases included. */
import { lookupCollection, lookupCollections } from '@iconify/json';
import { getIconData } from '@iconify/utils';
import type { IconifyJSON } from '@iconify/types';

export interface IconChecker {
  /** A reason the name is bad, or undefined when the icon exists. */
  problemWith(name: string): Promise<string | undefined>;
}

export function createIconChecker(): IconChecker {
  let known: Promise<Set<string>> | undefined;
  const sets = new Map<string, Promise<IconifyJSON>>();
  return {
    async problemWith(name) {
      const [prefix, icon] = name.split(':');
      if (!prefix || !icon) return `"${name}" is not of the form collection:name`;
      known ??= lookupCollections().then((all) => new Set(Object.keys(all)));
      if (!(await known).has(prefix)) return `"${prefix}" is not an Iconify collection in @iconify/json`;
      let set = sets.get(prefix);
      if (!set) sets.set(prefix, (set = lookupCollection(prefix)));
      if (!getIconData(await set, icon)) return `"${name}" does not exist in the ${prefix} collection`;
      return undefined;
    },
  };
}
