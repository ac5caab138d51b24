/**
 * Scenario harness: a temp workspace of manifests, the emulator, and run() configured as a user would
 * configure the CLI. Tests read like the lifecycle they check.
 */
import { afterAll, afterEach, beforeAll, beforeEach } from '@jest/globals'
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { startEmulator, type Emulator, type EmulatorOptions } from '../../emulator/index.js'
import type { RawSettings } from '../../src/config/inputs.js'
import { parseConfig } from '../../src/config/parse.js'
import type { Config } from '../../src/config/types.js'
import { serviceGateFor } from '../../src/github/events.js'
import { run } from '../../src/run/run.js'
import type { RunDependencies, RunResult } from '../../src/run/types.js'
import { scratchDir } from './scratch.js'

export interface Workspace {
  dir: string
  write(files: Record<string, string>): void
  remove(file: string): void
  cleanup(): void
}

/** A folder of manifests under `observability/`, removed by `cleanup()` or else after the file's tests. */
export function workspace(files: Record<string, string> = {}): Workspace {
  const dir = scratchDir('obsdeploy-ws-')
  const ws: Workspace = {
    dir,
    write(more) {
      for (const [name, text] of Object.entries(more)) {
        const file = path.join(dir, 'observability', name)
        mkdirSync(path.dirname(file), { recursive: true })
        writeFileSync(file, text)
      }
    },
    remove(file) {
      rmSync(path.join(dir, 'observability', file))
    },
    cleanup() {
      rmSync(dir, { recursive: true, force: true })
    }
  }
  ws.write(files)
  return ws
}

export async function emulator(options: EmulatorOptions = {}): Promise<Emulator> {
  return startEmulator({ port: 0, rateLimits: { selfHosted: false, managed: false }, ...options })
}

export interface ScenarioOptions {
  /** Passed to the emulator (unpaced unless the options say otherwise). */
  emulator?: EmulatorOptions
  /** A fresh emulator and workspace for each test (the default), or one for the whole file. */
  per?: 'test' | 'file'
}

/**
 * An emulator and a workspace, made before each test (or once per file) and closed after. The handles
 * it returns stay the same across tests and reach whatever is current, so test bodies say `emu` and `ws`.
 */
export function useScenario(options: ScenarioOptions = {}): { emu: Emulator; ws: Workspace } {
  let emu: Emulator | undefined
  let ws: Workspace | undefined
  const [before, after] = options.per === 'file' ? [beforeAll, afterAll] : [beforeEach, afterEach]
  before(async () => {
    emu = await emulator(options.emulator)
    ws = workspace()
  })
  after(async () => {
    await emu?.close()
    ws?.cleanup()
  })
  return { emu: current(() => emu, 'emulator'), ws: current(() => ws, 'workspace') }
}

/** A stand-in that forwards every read to what `get` returns now (methods stay bound to it). */
function current<T extends object>(get: () => T | undefined, what: string): T {
  return new Proxy({} as T, {
    get(_, key) {
      const target = get()
      if (!target) throw new Error(`no ${what} outside a test: useScenario makes one before each`)
      const value: unknown = Reflect.get(target, key)
      return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value
    }
  })
}

/** The config `obsdeploy <command>` makes from these settings, with the emulator's credentials. */
export function configFor(
  emu: Emulator,
  ws: Workspace,
  command: 'validate' | 'plan' | 'apply' | 'drift',
  settings: RawSettings = {},
  release = false
): Config {
  const managed = settings.mode === 'managed'
  const raw: RawSettings = {
    command,
    'api-url': emu.url,
    stack: 'shop',
    'rate-limit': 'off',
    'retry-budget': '20',
    'request-timeout': '5',
    ...(managed
      ? {
          'key-id': emu.credentials.keyId,
          'key-secret': emu.credentials.keySecret,
          'organization-id': emu.credentials.organizationId,
          'service-id': emu.credentials.serviceId
        }
      : { 'api-key': emu.credentials.apiKey }),
    ...settings
  }
  const { config, diagnostics } = parseConfig(raw, {
    cwd: ws.dir,
    defaultStack: 'shop',
    defaultPlanPath: path.join(ws.dir, '.obsdeploy', 'plan.json'),
    serviceGate: policy =>
      release && policy === 'on-release'
        ? { open: true, reason: 'release' }
        : serviceGateFor(undefined, policy),
    label: name => `--${name}`
  })
  if (!config) throw new Error(`bad settings: ${diagnostics.map(d => d.message).join('; ')}`)
  return config
}

/** Runs a command as `obsdeploy <command>` would, with the emulator's credentials. */
export async function obsdeploy(
  emu: Emulator,
  ws: Workspace,
  command: 'validate' | 'plan' | 'apply' | 'drift',
  settings: RawSettings = {},
  release = false,
  deps: RunDependencies = {}
): Promise<RunResult> {
  return run(configFor(emu, ws, command, settings, release), deps)
}

/** Changes that apply would carry out, as "action kind/name" strings, sorted. */
export function actions(result: RunResult): string[] {
  return (result.plan?.changes ?? [])
    .filter(c => c.action !== 'noop' && !c.deferred)
    .map(c => `${c.action} ${c.kind}/${c.name}`)
    .sort()
}

export function errors(result: RunResult): string[] {
  return result.diagnostics.filter(d => d.severity === 'error').map(d => d.message)
}

export const dashboard = (name: string, tiles: string, extra = ''): string => `kind: Dashboard
name: ${JSON.stringify(name)}
${extra}tiles:
${tiles}`

export const timeTile = (
  name: string,
  x: number,
  y: number,
  where = 'level:error'
): string => `  - name: ${JSON.stringify(name)}
    x: ${x}
    y: ${y}
    w: 6
    h: 3
    series:
      - type: time
        source: Logs
        aggFn: count
        where: ${JSON.stringify(where)}
        groupBy: [service]
`

export const alert = (name: string, dash: string, tile: string, threshold = 10): string => `---
kind: Alert
name: ${JSON.stringify(name)}
dashboard: ${JSON.stringify(dash)}
tile: ${JSON.stringify(tile)}
threshold: ${threshold}
thresholdType: above
interval: 5m
channel: { type: webhook, webhook: ops-pager }
`
