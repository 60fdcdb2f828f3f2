/**
 * The Kubernetes manifests under deploy/k8s, loaded two ways: the plain resource files as written
 * (every file a kustomization lists under `resources`, found by walking base, components and
 * overlays), and each overlay as `kubectl kustomize` renders it, when kubectl is on this machine.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseAllDocuments, parse } from 'yaml';

export const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const k8sDir = join(root, 'deploy', 'k8s');
export const overlays = readdirSync(join(k8sDir, 'overlays')).sort();

/** A Kubernetes object as parsed from YAML; validated against its schema before anything trusts it. */
export interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string };
  [field: string]: unknown;
}

interface Kustomization {
  resources?: string[];
  components?: string[];
}

function parseDocuments(text: string, source: string): Manifest[] {
  return parseAllDocuments(text).flatMap((doc) => {
    if (doc.errors.length > 0) throw new Error(`${source}: ${doc.errors[0]!.message}`);
    const value: unknown = doc.toJS();
    if (value === null || value === undefined) return [];
    if (typeof value !== 'object' || !('kind' in value) || !('apiVersion' in value)) throw new Error(`${source}: a document without kind/apiVersion`);
    return [value as Manifest];
  });
}

/** Every kustomization directory in the tree: base, each component, each overlay. */
export function kustomizationDirs(): string[] {
  const found: string[] = [];
  const walk = (dir: string): void => {
    if (existsSync(join(dir, 'kustomization.yaml'))) found.push(dir);
    for (const entry of readdirSync(dir, { withFileTypes: true })) if (entry.isDirectory()) walk(join(dir, entry.name));
  };
  walk(k8sDir);
  return found.sort();
}

/** The files each kustomization lists as whole resources (not patches), with their objects. */
export function resourceFiles(): Array<{ file: string; manifests: Manifest[] }> {
  return kustomizationDirs().flatMap((dir) => {
    const kustomization = parse(readFileSync(join(dir, 'kustomization.yaml'), 'utf8')) as Kustomization;
    return (kustomization.resources ?? [])
      .map((entry) => join(dir, entry))
      .filter((path) => path.endsWith('.yaml'))
      .map((path) => ({ file: relative(root, path), manifests: parseDocuments(readFileSync(path, 'utf8'), relative(root, path)) }));
  });
}

/** The kubectl that renders kustomizations, or why there is none (the rendered tests then skip). */
export function findKubectl(): { path: string } | { missing: string } {
  for (const dir of (process.env.PATH ?? '').split(':')) {
    const candidate = join(dir, 'kubectl');
    if (dir && existsSync(candidate)) return { path: candidate };
  }
  return { missing: 'kubectl is not on PATH (it is not installable from the package sources); rendered overlays are not checked here' };
}

/** One overlay as `kubectl kustomize` renders it. */
export function renderOverlay(kubectl: string, overlay: string): Manifest[] {
  const text = execFileSync(kubectl, ['kustomize', join(k8sDir, 'overlays', overlay)], { encoding: 'utf8' });
  return parseDocuments(text, `overlays/${overlay}`);
}
