import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import type { PersistedState } from './seed.js'

export function readPersisted(path: string): PersistedState | undefined {
  if (!existsSync(path)) return undefined
  const state = JSON.parse(readFileSync(path, 'utf8')) as PersistedState
  if (state.version !== 1)
    throw new Error(`${path}: unsupported emulator state version ${String(state.version)}`)
  return state
}

/** Written to a temporary file and renamed, so a crash mid-write never leaves half a state file. */
export function writePersisted(path: string, state: PersistedState): void {
  const temporary = `${path}.${process.pid}.tmp`
  writeFileSync(temporary, JSON.stringify(state))
  renameSync(temporary, path)
}

/**
 * Writes the state after mutations. Mutations within one turn of the event loop (e.g. concurrent requests) share one
 * write, made on the next turn; `flush` writes at once.
 */
export class Persister {
  private pending: NodeJS.Immediate | undefined

  constructor(
    private readonly path: string,
    private readonly snapshot: () => PersistedState
  ) {}

  markDirty(): void {
    if (this.pending !== undefined) return
    this.pending = setImmediate(() => this.flush())
  }

  flush(): void {
    if (this.pending !== undefined) clearImmediate(this.pending)
    this.pending = undefined
    writePersisted(this.path, this.snapshot())
  }

  dispose(): void {
    if (this.pending !== undefined) this.flush()
  }
}
