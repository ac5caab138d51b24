/** What every section gets from bench/run.ts. */
import { mkdtempSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { NodeBinary } from './child.js'
import type { RemoteEmulator } from './remote.js'

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')

export interface BenchContext {
  emu: RemoteEmulator
  /** A scratch folder for this run (deleted at the end). */
  tmp: string
  /** Fewer rounds and smaller sizes (for trying the harness, not for RESULTS.md). */
  quick: boolean
  /** `--compare-dist DIR`: another build of the action, timed beside this one in the cold start. */
  compareDist?: string
  /**
   * `--node A,B`: the node binaries the measured children run under (the first by default; sections whose
   * goals name a Node version measure each). Without it, the bench's own node.
   */
  nodes: NodeBinary[]
  log: (line: string) => void
}

export function scratch(ctx: BenchContext, name: string): string {
  return mkdtempSync(path.join(ctx.tmp, `${name}-`))
}
