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

  constructor(private readonly random: () => number) {}

  add(rule: FaultRule): void {
    this.rules.push({ rule, position: 0 })
  }

  clear(): void {
    this.rules = []
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
