/** The parent side of bench/emulator-child.ts: start it, send it commands, stop it. */
import { fork, type ChildProcess } from 'node:child_process'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Command, LogLine } from '../emulator-child.js'
import type { FleetShape } from './fixtures.js'
import type { Target } from './config.js'
import type { EmulatorOptions } from '../../emulator/index.js'

const here = path.dirname(fileURLToPath(import.meta.url))

export interface RemoteEmulator extends Target {
  managedWebhookIds: string[]
  reset(): Promise<void>
  seed(shape: FleetShape, managed?: boolean): Promise<void>
  clearLog(): Promise<void>
  log(): Promise<LogLine[]>
  count(managed?: boolean): Promise<{ dashboards: number; alerts: number }>
  setRateLimits(limits: EmulatorOptions['rateLimits']): Promise<void>
  close(): Promise<void>
}

/** Starts the emulator child; `latencyMs` is added to every request (a server farther away than loopback). */
export async function startRemoteEmulator(options: { latencyMs?: number } = {}): Promise<RemoteEmulator> {
  const child: ChildProcess = fork(path.join(here, '..', 'emulator-child.ts'), [JSON.stringify(options)], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc']
  })
  let next = 1
  const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: Error) => void }>()
  let ready!: () => void
  const started = new Promise<void>((resolve, reject) => {
    ready = resolve
    child.once('exit', code => reject(new Error(`emulator child exited (${code}) before it was ready`)))
  })
  child.on('message', (m: { id: number; ok: boolean; result?: unknown; error?: string }) => {
    if (m.id === 0) return ready()
    const w = waiting.get(m.id)
    if (!w) return
    waiting.delete(m.id)
    if (m.ok) w.resolve(m.result)
    else w.reject(new Error(m.error))
  })
  child.on('exit', () => {
    for (const w of waiting.values()) w.reject(new Error('emulator child exited'))
    waiting.clear()
  })
  const send = <T>(cmd: Command): Promise<T> =>
    new Promise<T>((resolve, reject) => {
      const id = next++
      waiting.set(id, { resolve: resolve as (v: unknown) => void, reject })
      child.send({ id, cmd })
    })
  await started
  const info = await send<{ url: string; credentials: Target['credentials']; managedWebhookIds: string[] }>({
    op: 'info'
  })
  return {
    ...info,
    reset: () => send({ op: 'reset' }),
    seed: (shape, managed) => send({ op: 'seed', shape, managed }),
    clearLog: () => send({ op: 'clearLog' }),
    log: () => send({ op: 'log' }),
    count: managed => send({ op: 'count', managed }),
    setRateLimits: limits => send({ op: 'setRateLimits', limits }),
    close: async () => {
      if (child.exitCode !== null) return
      const exited = new Promise<void>(resolve => child.once('exit', () => resolve()))
      child.disconnect()
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000)
      await exited
      clearTimeout(timer)
    }
  }
}
