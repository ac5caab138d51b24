/**
 * One full garbage collection between reading and planning, for large runs only.
 *
 * Why: loading the manifests and reading the live state leave garbage that only a full (mark-compact)
 * collection frees: each manifest file's text and each large list response as one large string, the
 * response's bytes, and the parsed JSON that the response schemas copy. V8 sizes the old generation from
 * what the last full collection kept, up to four times that, and in a plan of thousands of records the last
 * one comes while the manifests load: none follows before exit, so the planner's own heap piles on top of
 * that garbage. Measured on the CLI's plan of 5,000 dashboards + 10,000 alerts (bench/RESULTS.md section
 * 10): peak RSS ~265 -> ~240 MB, for one collection of a ~100 MB heap (~20 ms) in a run of ~3.5 s of CPU.
 *
 * How: Node exposes no collection to scripts without `--expose-gc` at start-up, which neither the action
 * (node24, started by the runner) nor the CLI's users can pass. The flag set at run time applies to
 * contexts made afterwards, so a new `vm` context has `gc`. Node documents flags set after start-up as
 * unsupported, so nothing depends on it: where it is refused, or `gc` is absent, the run goes on as before.
 */
import v8 from 'node:v8'
import vm from 'node:vm'

/** Below this many records (live and desired together), a run's garbage is small and is left to V8. */
export const COLLECT_FROM_RECORDS = 10_000

export function collectBeforePlanning(records: number): void {
  if (records < COLLECT_FROM_RECORDS) return
  try {
    v8.setFlagsFromString('--expose-gc')
    const gc: unknown = vm.runInNewContext('typeof gc === "function" ? gc : undefined')
    if (typeof gc === 'function') (gc as () => void)()
  } catch {
    // A runtime without the flag: V8 collects when it decides to, as before.
  }
}
