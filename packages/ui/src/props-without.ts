/**
 * `props` without the named ones, for a component that hands the rest to its element. A loop, not
 * `({ to, state, ...anchor })`: Node 20's V8 copies an object rest that names what it leaves out in
 * its runtime, 0.5-1.5 µs a call against 0.05 µs for this loop (docs/decisions/performance.md,
 * stop 43), and a server render draws such a component for every link of a page. Symbol-keyed
 * props, which React never reads, are not copied.
 */
export function propsWithout<P extends object, K extends keyof P>(props: P, names: ReadonlySet<K>): Omit<P, K> {
  const rest: Partial<P> = {};
  for (const name in props) if (!names.has(name as unknown as K)) rest[name] = props[name];
  return rest as Omit<P, K>;
}
