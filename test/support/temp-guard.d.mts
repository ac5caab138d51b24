/** Types of temp-guard.mjs (plain JavaScript, so Jest's global setup and teardown load it untransformed). */
export declare function claimTempFolder(): string
export declare function releaseTempFolder(): string[]
export declare function leftovers(dir: string): string[]
export declare function leftoversMessage(left: readonly string[]): string
