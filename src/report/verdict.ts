/** The one sentence a report leads with, and its tone: fixed words and numbers, no untrusted text. */
import type { ApplyResult, OutcomeStatus } from '../apply/types.js'
import type { RunCommand } from '../config/types.js'
import type { Diagnostic } from '../diagnostics.js'
import { countChanges, type Change } from '../plan/types.js'
import type { ReportInput } from './input.js'
import { listOfCounts, plural } from './wording.js'

export interface Verdict {
  tone: 'ok' | 'changes' | 'failed'
  /** One sentence of fixed words and numbers. */
  text: string
}

export const TITLES: Record<RunCommand, string> = {
  plan: 'Plan',
  apply: 'Apply',
  drift: 'Drift',
  validate: 'Validation'
}

const NO_CHANGES = 'No changes. Live state matches the manifests.'

export function verdictOf(input: ReportInput, diagnostics: readonly Diagnostic[]): Verdict {
  const errors = diagnostics.filter(d => d.severity === 'error').length
  const warnings = diagnostics.filter(d => d.severity === 'warning').length
  if (input.apply) return applyVerdict(input.apply, errors)
  if (input.plan) return planVerdict(input.command, input.plan.changes, errors)

  const warned = warnings > 0 ? ` ${plural(warnings, 'warning')}.` : ''
  if (input.command === 'validate') {
    const found = listOfCounts([
      [errors, 'error', 'errors'],
      [warnings, 'warning', 'warnings']
    ])
    return errors > 0
      ? { tone: 'failed', text: `Validation failed: ${found}.` }
      : { tone: 'ok', text: `Manifests are valid.${warned}` }
  }
  return errors > 0
    ? { tone: 'failed', text: `${TITLES[input.command]} stopped: ${plural(errors, 'error')}.` }
    : { tone: 'ok', text: `Nothing to report.${warned}` }
}

/** An apply: what it did, or how far it got. */
function applyVerdict({ outcomes, complete }: ApplyResult, errors: number): Verdict {
  const count = (s: OutcomeStatus) => outcomes.filter(o => o.status === s).length
  const statuses = listOfCounts([
    [count('applied'), 'applied'],
    [count('adopted'), 'adopted'],
    [count('failed'), 'failed'],
    [count('skipped'), 'skipped']
  ])
  if (outcomes.length === 0) {
    return errors > 0
      ? { tone: 'failed', text: `Apply stopped: ${plural(errors, 'error')}.` }
      : { tone: 'ok', text: NO_CHANGES }
  }
  if (complete && errors === 0) {
    const done = (action: string) => outcomes.filter(o => o.action === action).length
    const applied = listOfCounts([
      [done('delete'), 'deleted'],
      [done('replace'), 'replaced'],
      [done('update'), 'updated'],
      [done('create'), 'created']
    ])
    const adopted = count('adopted') > 0 ? ` (${count('adopted')} adopted after a lost response)` : ''
    return { tone: 'changes', text: `Applied: ${applied}${adopted}.` }
  }
  return {
    tone: 'failed',
    text: `Apply incomplete: ${statuses}. Fix the failures and run again; the next apply continues from the live state.`
  }
}

/** A plan (or a drift check): what it would change, destructive first, and what waits. */
function planVerdict(command: RunCommand, changes: readonly Change[], errors: number): Verdict {
  const failed = errors > 0 ? ` ${plural(errors, 'error')} below.` : ''
  const tone = (hasChanges: boolean): Verdict['tone'] =>
    errors > 0 ? 'failed' : hasChanges ? 'changes' : 'ok'
  if (command === 'drift') {
    const drifted = changes.filter(c => c.action !== 'noop')
    if (drifted.length === 0) return { tone: tone(false), text: `${NO_CHANGES}${failed}` }
    const what = listOfCounts([
      [drifted.filter(c => c.action === 'create').length, 'missing live'],
      [drifted.filter(c => c.action === 'update' || c.action === 'replace').length, 'changed'],
      [drifted.filter(c => c.action === 'delete').length, 'not in the manifests']
    ])
    return {
      tone: tone(true),
      text: `Drift: ${plural(drifted.length, 'resource')} ${drifted.length === 1 ? 'differs' : 'differ'} from the manifests (${what}).${failed}`
    }
  }
  const counts = countChanges(changes)
  const actionable = counts.create + counts.update + counts.replace + counts.delete
  const waiting = listOfCounts([
    [changes.filter(c => c.deferred === 'prune').length, 'would be deleted with prune'],
    [changes.filter(c => c.deferred === 'release').length, 'waits for a release', 'wait for a release'],
    [changes.filter(c => c.deferred === 'in-use').length, 'kept: still in use', 'kept: still in use'],
    [
      changes.filter(c => c.deferred === 'own-user').length,
      "kept: the API key's own user",
      "kept: the API key's own users"
    ]
  ])
  if (actionable === 0) {
    if (counts.deferred === 0) return { tone: tone(false), text: `${NO_CHANGES}${failed}` }
    return { tone: tone(true), text: `Nothing is applied by this run: ${waiting}.${failed}` }
  }
  // Destructive first, as the groups below are.
  const planned = listOfCounts([
    [counts.delete, 'to delete'],
    [counts.replace, 'to replace'],
    [counts.update, 'to update'],
    [counts.create, 'to create']
  ])
  const deferred = counts.deferred > 0 ? `; deferred: ${waiting}` : ''
  return { tone: tone(true), text: `Plan: ${planned}${deferred}.${failed}` }
}
