/**
 * The emulator in its own process, driven over IPC by the benchmarks, so that the server's work (validation,
 * JSON) runs beside the measured client instead of on its event loop, as a remote API would. Exits when its
 * parent goes away.
 */
import { startEmulator, type Emulator, type EmulatorOptions } from '../emulator/index.js'
import { seedFleet, type FleetShape } from './lib/fixtures.js'

export type Command =
  | { op: 'info' }
  | { op: 'reset' }
  | { op: 'seed'; shape: FleetShape; managed?: boolean }
  | { op: 'clearLog' }
  | { op: 'log' }
  | { op: 'count'; managed?: boolean }
  | { op: 'setRateLimits'; limits: EmulatorOptions['rateLimits'] }

export interface LogLine {
  method: string
  path: string
  status: number | string
  rateLimited?: boolean
  time: number
}

if (!process.send) throw new Error('bench/emulator-child.ts runs as a forked child of bench/run.ts')
/** Options beyond the defaults (e.g. `latencyMs`), as JSON in the first argument. */
const extra = JSON.parse(process.argv[2] ?? '{}') as Pick<EmulatorOptions, 'latencyMs'>
const emu: Emulator = await startEmulator({
  port: 0,
  rateLimits: { selfHosted: false, managed: false },
  latencyMs: extra.latencyMs
})

function handle(cmd: Command): unknown {
  switch (cmd.op) {
    case 'info':
      return {
        url: emu.url,
        credentials: emu.credentials,
        managedWebhookIds: emu.managed().webhooks.map(w => w.id)
      }
    case 'reset':
      for (const store of [emu.selfHosted, emu.managed()]) {
        store.dashboards.clear()
        store.alerts.clear()
      }
      emu.clearLog()
      return null
    case 'seed':
      seedFleet(cmd.managed ? emu.managed() : emu.selfHosted, cmd.shape)
      return null
    case 'clearLog':
      emu.clearLog()
      return null
    case 'log':
      return emu.requestLog.map((r): LogLine => ({
        method: r.method,
        path: r.path,
        status: r.status,
        rateLimited: r.rateLimited,
        time: r.time
      }))
    case 'count': {
      const store = cmd.managed ? emu.managed() : emu.selfHosted
      return { dashboards: store.dashboards.size, alerts: store.alerts.size }
    }
    case 'setRateLimits':
      emu.setRateLimits(cmd.limits)
      return null
  }
}

process.on('message', (message: { id: number; cmd: Command }) => {
  let reply: { id: number; ok: boolean; result?: unknown; error?: string }
  try {
    reply = { id: message.id, ok: true, result: handle(message.cmd) }
  } catch (e) {
    reply = { id: message.id, ok: false, error: e instanceof Error ? e.message : String(e) }
  }
  process.send!(reply)
})
process.on('disconnect', () => {
  void emu.close().finally(() => process.exit(0))
})
process.send({ id: 0, ok: true, result: 'ready' })
