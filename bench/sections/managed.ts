/**
 * 3. Managed mode under its real rate limit (10 requests per 10 s), scaled down in time: the emulator's managed
 * limit and the client's `rate-limit` are both set to 10 per (10 s / factor). Plan, apply (dashboards with
 * alerts), plan again; count the requests and the 429s in the emulator's log.
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'
import { run } from '../../src/run/run.js'
import { configFor } from '../lib/config.js'
import { scratch, type BenchContext } from '../lib/context.js'
import { ms, ratio, type Row, type Section } from '../lib/stats.js'

function manifests(dir: string, dashboards: number, webhookId: string): string {
  const folder = path.join(dir, 'observability')
  mkdirSync(folder, { recursive: true })
  for (let i = 0; i < dashboards; i++) {
    const name = `Managed ${i}`
    writeFileSync(
      path.join(folder, `m${i}.yaml`),
      `kind: Dashboard
name: ${name}
tiles:
  - name: Errors
    x: 0
    y: 0
    w: 6
    h: 3
    series: [{ type: time, source: Logs, aggFn: count, where: "service:m${i} AND level:error" }]
  - name: Latency
    x: 6
    y: 0
    w: 6
    h: 3
    series: [{ type: time, source: Logs, aggFn: avg, field: duration, where: "service:m${i}" }]
---
kind: Alert
name: ${name} errors
dashboard: ${name}
tile: Errors
threshold: 10
thresholdType: above
interval: 5m
channel: { type: webhook, webhookId: ${webhookId} }
`
    )
  }
  return 'observability/**/*.yaml'
}

export async function managedRateLimit(ctx: BenchContext): Promise<Section> {
  const { emu } = ctx
  const dashboards = ctx.quick ? 5 : 20
  const section: Section = {
    title: '3. Managed mode under its rate limit',
    method:
      'Managed mode (Basic auth, organization and service ids from the emulator), dashboards of 2 tiles with one alert each. ' +
      'The emulator enforces the managed limit of 10 requests per 10 s divided by a time factor, and the client’s ' +
      '`rate-limit` is set to the same scaled value. Steps: plan, apply, plan (must be empty), each a separate ' +
      '`run()` (a separate process in real use). "separated": each step starts a full window after the previous one ' +
      'ended (separate CI jobs); "back-to-back": each step starts as soon as the previous one ended ' +
      '(`obsdeploy plan && obsdeploy apply`). 429s counted in the emulator request log (`rateLimited` or status ' +
      '429). Ideal time = requests × window / 10, against the time spent in the steps.',
    rows: [],
    raw: [],
    notes: []
  }
  // Factor 1 is the real limit in real time, with fewer dashboards to stay within the time budget.
  const scenarios: { factor: number; gap: boolean; dashboards: number }[] = ctx.quick
    ? [
        { factor: 20, gap: true, dashboards },
        { factor: 20, gap: false, dashboards }
      ]
    : [
        { factor: 20, gap: true, dashboards },
        { factor: 20, gap: false, dashboards },
        { factor: 5, gap: true, dashboards },
        { factor: 1, gap: false, dashboards: 5 }
      ]
  for (const { factor, gap, dashboards } of scenarios) {
    const windowMs = 10_000 / factor
    const dir = scratch(ctx, `managed-${factor}-${gap ? 'separated' : 'back-to-back'}`)
    const glob = manifests(dir, dashboards, emu.managedWebhookIds[0]!)
    await emu.reset()
    await emu.setRateLimits({ managed: { requests: 10, windowMs } })
    const settings = { manifests: glob, mode: 'managed', 'rate-limit': `10/${windowMs}ms` }
    const steps: {
      command: 'plan' | 'apply'
      from: number
      to: number
      exitCode: number
      result: Awaited<ReturnType<typeof run>>
    }[] = []
    for (const command of ['plan', 'apply', 'plan'] as const) {
      // A fresh server window before the first step, and before every step when separated.
      if (gap || steps.length === 0) await new Promise(resolve => setTimeout(resolve, windowMs * 1.1 + 50))
      const from = Date.now()
      const result = await run(configFor(emu, dir, command, settings))
      steps.push({ command, from, to: Date.now(), exitCode: result.exitCode, result })
    }
    const log = await emu.log()
    await emu.setRateLimits({ managed: false })
    const count = await emu.count(true)
    const limited = log.filter(r => r.rateLimited || r.status === 429).length
    const last = steps[2]!.result
    const leftover = last.plan?.changes.filter(c => c.action !== 'noop').length ?? -1
    const ok = steps.every(s => s.exitCode === 0) && leftover === 0
    const busy = steps.reduce((n, s) => n + (s.to - s.from), 0)
    const ideal = (log.length * windowMs) / 10
    const perStep = steps.map(s => log.filter(r => r.time >= s.from && r.time <= s.to))
    // The least time the server allows: a full budget at the start (of each step when separated), then one
    // window per further 10 requests; and the same with the client's margin (1.02 × window + 100 ms, pacer.ts).
    const windows = gap
      ? perStep.reduce((n, p) => n + Math.max(0, Math.ceil(p.length / 10) - 1), 0)
      : Math.max(0, Math.ceil(log.length / 10) - 1)
    const least = windows * windowMs
    const paced = windows * (windowMs * 1.02 + 100)
    const label = `${dashboards} dashboards, 10/${windowMs / 1000} s (factor ${factor}), ${gap ? 'separated' : 'back-to-back'}`
    const rows: Row[] = [
      {
        figure: `${label}: converges`,
        measured: ok
          ? `yes: ${count.dashboards} dashboards, ${count.alerts} alerts; last plan empty`
          : `NO: exits ${steps.map(s => s.exitCode).join('/')}, ${leftover} change(s) left: ${steps
              .flatMap(s => s.result.diagnostics)
              .map(d => d.message)
              .join('; ')
              .slice(0, 500)}`,
        goal: 'exit 0, empty last plan',
        pass: ok
      },
      {
        figure: `${label}: requests (plan / apply / plan)`,
        measured: `${log.length} (${perStep.map(p => p.length).join(' / ')})`,
        goal: 'info'
      },
      {
        figure: `${label}: 429 responses (plan / apply / plan)`,
        measured: `${limited} (${perStep.map(p => p.filter(r => r.rateLimited || r.status === 429).length).join(' / ')})`,
        goal: '0',
        pass: limited === 0
      },
      {
        figure: `${label}: time in the steps / ideal (requests ÷ rate)`,
        measured:
          `${ratio(busy / ideal)} (${ms(busy)} vs ${ms(ideal)}); against the least the server allows ` +
          `(first 10 free) ${ratio(busy / least)} (${ms(least)}; ${ms(paced)} with the pacer’s margin)`,
        goal: 'info (1 is ideal)'
      }
    ]
    section.rows.push(...rows)
    const t0 = log[0]?.time ?? 0
    section.raw.push(
      `${label}: ${steps.map(s => `${s.command} ${ms(s.to - s.from)} (exit ${s.exitCode})`).join(', ')}; requests ${log.length}; 429s ${limited}; ` +
        `statuses ${JSON.stringify(tally(log.map(r => String(r.status))))}`,
      `${label}: requests as "start offset ms:method path status": ${log
        .map(r => `${r.time - t0}:${r.method} ${r.path.replace(/^.*\/observability/, '')} ${r.status}`)
        .join(', ')}`
    )
  }
  return section
}

function tally(values: string[]): Record<string, number> {
  const out: Record<string, number> = {}
  for (const v of values) out[v] = (out[v] ?? 0) + 1
  return out
}
