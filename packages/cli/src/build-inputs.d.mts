// Types for the tests of build-inputs.mjs (plain JavaScript: it runs before anything is compiled).
export interface StepInputs {
  files?: string[];
  imports?: string[];
  env?: string[];
  derived?: () => string[];
  after?: string[];
}
export declare function inputsKey(root: string, inputs: StepInputs): string;
export declare function upToDate(buildDir: string, step: string, key: string, outputs: Array<string | (() => boolean)>): boolean;
export declare function recordInputs(buildDir: string, step: string, key: string): void;
