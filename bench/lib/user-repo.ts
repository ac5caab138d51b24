/**
 * A fixture shaped like a user's repository (issue 31): one file per service, `n` files in team folders,
 * each with one dashboard of 8 mixed tiles (series and config forms: time, stacked bars, number, table,
 * search, markdown, a formula, a heatmap) and 2 alerts, `where` clauses as users write them: quoted values,
 * parentheses, ranges, comparisons, negations, wildcards. Nothing in it repeats across files but the
 * shape. The live state is made converged by applying it once (bench/sections/user-repo.ts).
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import path from 'node:path'

const TEAMS = ['payments', 'search', 'platform', 'growth', 'identity', 'storage', 'edge', 'data']
const LEVELS = ['error', 'warn', 'fatal']
const METHODS = ['GET', 'POST', 'PUT', 'DELETE']

/** Five Lucene `where` forms per dashboard, different in every file. */
function wheres(i: number): string[] {
  const svc = `svc-${i}`
  const lo = 100 + (i % 400)
  return [
    `service:"${svc}" AND (level:${LEVELS[i % 3]} OR level:${LEVELS[(i + 1) % 3]})`,
    `service:"${svc}" AND duration:[${lo} TO ${lo * 10}] AND NOT path:"/health"`,
    `service:${svc} AND http.status_code:>=${500 + (i % 4)}`,
    `service:"${svc}" AND http.method:(${METHODS[i % 4]} OR ${METHODS[(i + 1) % 4]}) AND -user.id:internal-*`,
    `(service:"${svc}" OR service:"${svc}-worker") AND message:"timeout after ${i % 60}s"`
  ]
}

export const userDashboardName = (i: number): string => `${TEAMS[i % TEAMS.length]} / svc-${i}`

/** One file: a dashboard of 8 mixed tiles and two alerts on two of them. */
export function userDashboardYaml(i: number): string {
  const w = wheres(i)
  const name = userDashboardName(i)
  const q = (s: string) => `'${s.replace(/'/g, "''")}'`
  return `# svc-${i}: owned by team ${TEAMS[i % TEAMS.length]}
kind: Dashboard
name: ${JSON.stringify(name)}
tags: [${TEAMS[i % TEAMS.length]}, tier-${i % 3}]
tiles:
  - name: Errors
    x: 0
    y: 0
    w: 6
    h: 3
    series:
      - type: time
        source: Logs
        aggFn: count
        where: ${q(w[0]!)}
        groupBy: [service]
  - name: Slow requests
    x: 6
    y: 0
    w: 6
    h: 3
    series:
      - type: time
        displayType: stacked_bar
        source: Logs
        aggFn: avg
        field: duration
        where: ${q(w[1]!)}
  - name: Server errors
    x: 12
    y: 0
    w: 4
    h: 2
    series:
      - type: number
        source: Logs
        aggFn: count
        where: ${q(w[2]!)}
  - name: Calls by method
    x: 16
    y: 0
    w: 8
    h: 4
    config:
      displayType: table
      source: Logs
      select:
        - aggFn: count
          where: ${q(w[3]!)}
      groupBy: http.method
      orderBy: count DESC
  - name: Timeouts
    x: 0
    y: 3
    w: 12
    h: 4
    series:
      - type: search
        source: Logs
        fields: [timestamp, service, level, message]
        where: ${q(w[4]!)}
  - name: About
    x: 12
    y: 4
    w: 12
    h: 2
    series:
      - type: markdown
        content: |
          # svc-${i}
          Owned by ${TEAMS[i % TEAMS.length]}. Runbook: https://runbooks.example.com/svc-${i}
  - name: Error rate
    x: 0
    y: 7
    w: 6
    h: 2
    config:
      displayType: number
      source: Logs
      select:
        - aggFn: count
          where: ${q(`service:"svc-${i}" AND level:error`)}
        - aggFn: count
          where: ${q(`service:"svc-${i}"`)}
      formulas: [{ expression: A / B * 100, alias: error % }]
      numberFormat: { output: number, mantissa: 1 }
  - name: Latency heatmap
    x: 6
    y: 7
    w: 18
    h: 4
    config:
      displayType: heatmap
      source: Traces
      select: [{ valueExpression: duration, heatmapScaleType: log }]
---
kind: Alert
name: ${JSON.stringify(`${name} errors`)}
dashboard: ${JSON.stringify(name)}
tile: Errors
threshold: ${5 + (i % 20)}
thresholdType: above
interval: 5m
channel: { type: webhook, webhook: ops-pager }
message: 'Too many errors on svc-${i}'
---
kind: Alert
name: ${JSON.stringify(`${name} traffic`)}
dashboard: ${JSON.stringify(name)}
tile: Server errors
threshold: 1
thresholdMax: ${100 + i}
thresholdType: not_between
interval: 15m
channel:
  type: webhook
  webhook: ops-pager
`
}

/** Writes `n` files under `<dir>/observability/<team>/svc-<i>.yaml`. Returns the glob. */
export function writeUserRepo(dir: string, n: number): string {
  for (let i = 0; i < n; i++) {
    const folder = path.join(dir, 'observability', TEAMS[i % TEAMS.length]!)
    mkdirSync(folder, { recursive: true })
    writeFileSync(path.join(folder, `svc-${i}.yaml`), userDashboardYaml(i))
  }
  return 'observability/**/*.yaml'
}
