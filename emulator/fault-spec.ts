/**
 * Faults from the command line: `npm run emulator -- --fault 'POST /api/v2/dashboards:drop:3'`. One small
 * grammar onto the fault kinds of faults.ts, so a demo or a manual test needs no wrapper script.
 *
 *   [METHOD] [PATH]:KIND[=ARG][:TIMES]
 */
import type { FaultKind, FaultRule } from './types.js'

export const FAULT_HELP = `--fault '[METHOD] [PATH]:KIND[=ARG][:TIMES]'   (repeatable; checked in the order given)
  METHOD  GET, POST, PUT, PATCH or DELETE; any method when left out
  PATH    a part of the request path (/api/v2/dashboards, /alerts, ...); any path when left out or *
  KIND    429, 500, 502 or 503   the status (429 and 500 as the API sends them, 502 and 503 as a proxy's page)
          reset                  the connection is closed before the request is processed (nothing stored)
          drop (commit-drop)     the request is processed and stored, then the connection dies unanswered
          delay                  the answer is held (longer than any client timeout), then sent
          gather                 the request is held until ARG requests of the rule are held, then all go on
                                 together (at most 60 s): two clients' writes then both follow their reads
          late (commit-late)     the request waits, then is processed and stored even when the client has
                                 given up meanwhile (a slow server that commits after the client's timeout)
  ARG     429: the Retry-After in seconds (default 1); delay, late: how long in milliseconds (default 60000);
          gather: how many requests go on together (default 2)
  TIMES   N: the next N matching requests (default 1; gather: ARG), then none; always: every one; P%: each with
          probability P (e.g. 20%)
  Examples:
    --fault 'POST /api/v2/dashboards:drop:3'    the next three dashboard creates are stored, and unanswered
    --fault 'GET /alerts:503:always'            every alert read fails with a gateway page
    --fault ':429=5:10%'                        one request in ten is rate-limited, with Retry-After: 5
    --fault 'POST /api/v2/connections:gather'   the next two connection creates go on together`

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE']
const KINDS: Readonly<Record<string, FaultKind>> = {
  '429': '429',
  '500': '500',
  '502': '502',
  '503': '503',
  reset: 'reset',
  delay: 'delay',
  gather: 'gather',
  drop: 'commit-drop',
  'commit-drop': 'commit-drop',
  late: 'commit-late',
  'commit-late': 'commit-late'
}

/** One `--fault` value as a rule for `emulator.faults.add`, or an Error that says which part is wrong. */
export function parseFaultSpec(spec: string): FaultRule {
  const fail = (why: string) => new Error(`--fault '${spec}': ${why}`)
  const parts = spec.split(':')
  if (parts.length < 2 || parts.length > 3) throw fail('expected [METHOD] [PATH]:KIND[=ARG][:TIMES]')
  const [target, kindPart, times] = parts as [string, string, string | undefined]

  const rule: FaultRule = {}
  const words = target.trim().split(/\s+/).filter(Boolean)
  if (words.length > 0 && METHODS.includes(words[0]!.toUpperCase()))
    rule.method = words.shift()!.toUpperCase()
  if (words.length > 1) throw fail(`"${target.trim()}" is not a method and a path`)
  if (words.length === 1 && words[0] !== '*') {
    if (!words[0]!.startsWith('/')) throw fail(`the path must start with / (or be *), got "${words[0]}"`)
    rule.path = words[0]!
  }

  const [kindWord, arg] = kindPart.trim().split('=') as [string, string | undefined]
  const kind = KINDS[kindWord.toLowerCase()]
  if (!kind) throw fail(`unknown kind "${kindWord}": one of ${Object.keys(KINDS).join(', ')}`)
  if (arg !== undefined) {
    const n = Number(arg)
    if (arg === '' || !Number.isFinite(n) || n < 0)
      throw fail(`"${arg}" is not a number of ${kind === '429' ? 'seconds' : 'milliseconds'}`)
    if (kind === '429') rule.retryAfterSeconds = n
    else if (kind === 'delay' || kind === 'commit-late') rule.delayMs = n
    else if (kind === 'gather' && Number.isInteger(n) && n >= 2) rule.together = n
    else if (kind === 'gather') throw fail(`gather takes a number of requests of 2 or more, got "${arg}"`)
    else throw fail(`${kindWord} takes no =value (only 429, delay, late and gather do)`)
  }

  const count = (times ?? String(kind === 'gather' ? (rule.together ?? 2) : 1)).trim().toLowerCase()
  if (count === 'always') rule.kind = kind
  else if (/^\d+(\.\d+)?%$/.test(count)) {
    const percent = Number(count.slice(0, -1))
    if (percent > 100) throw fail(`${count} is more than 100%`)
    rule.kind = kind
    rule.probability = percent / 100
  } else if (/^[1-9]\d*$/.test(count)) rule.sequence = Array.from({ length: Number(count) }, () => kind)
  else throw fail(`"${times}" is not a count, always, or a percentage`)
  return rule
}

/** A rule in words, for the banner: `POST /api/v2/dashboards: commit-drop, the next 3`. */
export function describeFaultRule(rule: FaultRule): string {
  const where = [rule.method ?? 'any method', typeof rule.path === 'string' ? rule.path : 'any path'].join(
    ' '
  )
  const kind = rule.sequence?.[0] ?? rule.kind
  const extra =
    rule.retryAfterSeconds !== undefined
      ? ` (Retry-After ${rule.retryAfterSeconds} s)`
      : rule.delayMs !== undefined
        ? ` (${rule.delayMs} ms)`
        : kind === 'gather'
          ? ` (${rule.together ?? 2} together)`
          : ''
  const times = rule.sequence
    ? `the next ${rule.sequence.length}`
    : rule.probability !== undefined
      ? `${Math.round(rule.probability * 1000) / 10}% of them`
      : 'every one'
  return `${where}: ${kind}${extra}, ${times}`
}
