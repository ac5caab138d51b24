/** Types of dist-stamp.mjs (plain JavaScript, so the build and Jest's global setup need no TypeScript step). */
export declare const STAMP_FILE: string
export declare function stamp(root: string): string
export declare function distStaleness(root: string): string | undefined
