// Types of web/build.mjs for the TypeScript tests that build the UI.
export declare const WEB_OUT_DIR: string;
export declare function buildWeb(options?: { outDir?: string; minify?: boolean }): Promise<string>;
