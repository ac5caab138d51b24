import type { FaultController, FaultKind, FaultRule } from './types.js'

export interface PickedFault {
  kind: FaultKind
  rule: FaultRule
}

interface ActiveRule {
  rule: FaultRule
  position: number
}

/**
 * Scripted and random failures. Rules are checked in the order they were added; the first rule that matches a
 * request and yields a fault decides it. A `sequence` rule hands its entries to successive matching requests
 * ('ok' lets one through) and then passes everything; a `kind` rule fires with `probability` (default 1), drawn
 * from the emulator's deterministic PRNG.
 */
export class Faults implements FaultController {
  private rules: ActiveRule[] = []
  /** The requests a 'gather' rule holds, by rule: each one's release. */
  private readonly gathering = new Map<FaultRule, Array<() => void>>()

  constructor(private readonly random: () => number) {}

  add(rule: FaultRule): void {
    this.rules.push({ rule, position: 0 })
  }

  clear(): void {
    this.rules = []
  }

  /**
   * A 'gather' fault: the request is held until `together` requests of its rule are held (default 2), then they all
   * go on at once; one that has waited `maxMs` goes on alone. Two clients that read, then write, then both have read
   * before either writes, whatever the order their processes happened to run in.
   */
  gather(rule: FaultRule, maxMs: number): Promise<void> {
    const held = this.gathering.get(rule) ?? []
    this.gathering.set(rule, held)
    const released = new Promise<void>(resolve => {
      const release = () => {
        clearTimeout(timer)
        resolve()
      }
      const timer = setTimeout(() => {
        held.splice(held.indexOf(release), 1)
        resolve()
      }, maxMs)
      held.push(release)
    })
    if (held.length >= (rule.together ?? 2)) for (const release of held.splice(0)) release()
    return released
  }

  pick(method: string, path: string): PickedFault | undefined {
    for (const active of this.rules) {
      const { rule } = active
      if (!matches(rule, method, path)) continue
      if (rule.sequence !== undefined) {
        if (active.position >= rule.sequence.length) continue
        const step = rule.sequence[active.position++]
        if (step === 'ok') return undefined
        return { kind: step, rule }
      }
      if (rule.kind !== undefined && this.random() < (rule.probability ?? 1)) return { kind: rule.kind, rule }
    }
    return undefined
  }
}

function matches(rule: FaultRule, method: string, path: string): boolean {
  if (rule.method !== undefined && rule.method.toUpperCase() !== method) return false
  if (rule.path === undefined) return true
  if (typeof rule.path === 'string') return path.includes(rule.path)
  rule.path.lastIndex = 0
  return rule.path.test(path)
}
