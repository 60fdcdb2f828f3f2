// Types for the tests of server-sources.mjs (plain JavaScript: it runs before anything is compiled).
export declare function includedSources(root: string): string[];
export declare function importClosure(root: string, entries: string[]): string[];
export declare function serverSources(root: string): string[];
export declare function workspacePackages(root: string): Map<string, string>;
export declare function compiledStem(root: string, path: string): string;
export declare function compiledPath(root: string, path: string): string;
