/**
 * Schema validation of one Kubernetes object: built-in kinds against the Kubernetes 1.33 schemas of
 * `kubernetes-models`, the two custom resources (HTTPRoute, ServiceMonitor) against the openAPIV3
 * schemas of their own CRDs, kept in tests/deploy/crds/. An unknown kind is an error, never a pass.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import { ConfigMap, Namespace, PersistentVolumeClaim, Secret, Service } from 'kubernetes-models/v1';
import { Deployment, StatefulSet } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { Ingress } from 'kubernetes-models/networking.k8s.io/v1';
import { parse } from 'yaml';
import type { Manifest } from './manifests.js';

interface Validatable {
  validate(): void;
}
type ModelClass = new (data: never) => Validatable;

const builtIn: Record<string, ModelClass> = {
  'v1/ConfigMap': ConfigMap,
  'v1/Secret': Secret,
  'v1/Service': Service,
  'v1/Namespace': Namespace,
  'v1/PersistentVolumeClaim': PersistentVolumeClaim,
  'apps/v1/Deployment': Deployment,
  'apps/v1/StatefulSet': StatefulSet,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
  'networking.k8s.io/v1/Ingress': Ingress,
};

interface CrdSchema {
  group: string;
  version: string;
  kind: string;
  schema: object;
}

// CRD schemas carry x-kubernetes-* keywords and int32/int64 formats that Ajv does not know; they are
// structural annotations for the API server, so they are allowed and not enforced.
const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
const crdValidators = new Map<string, ValidateFunction>(
  ['httproute-v1.yaml', 'servicemonitor-v1.yaml'].map((file) => {
    const crd = parse(readFileSync(join(import.meta.dirname, 'crds', file), 'utf8')) as CrdSchema;
    return [`${crd.group}/${crd.version}/${crd.kind}`, ajv.compile(crd.schema)];
  }),
);

/** Throws with the object's name and the first schema errors when it does not validate. */
export function validateManifest(manifest: Manifest): void {
  const key = `${manifest.apiVersion}/${manifest.kind}`;
  const label = `${manifest.kind}/${manifest.metadata?.name ?? '?'}`;
  const Model = builtIn[key];
  if (Model) {
    try {
      new Model(manifest as never).validate();
    } catch (error) {
      throw new Error(`${label}: ${(error as Error).message}`, { cause: error });
    }
    return;
  }
  const validate = crdValidators.get(key);
  if (!validate) throw new Error(`${label}: no schema for ${key}; add its model or CRD schema to tests/deploy/validate.ts`);
  if (!validate(manifest)) throw new Error(`${label}: ${ajv.errorsText(validate.errors)}`);
}
