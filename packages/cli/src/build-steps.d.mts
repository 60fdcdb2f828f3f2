// Types for the tests of build-steps.mjs (plain JavaScript: it runs before anything is compiled).
export declare const ICON_NAME_IN_TEXT: RegExp;
export declare function iconNamesIn(file: string): string;
export declare function buildSteps(buildDir: string): unknown[];
