/**
 * Diagnostics and plan entries as GitHub annotations on the changed files. GitHub shows at most
 * ANNOTATION_LIMIT per type per step, so the caller also lists everything in the job summary.
 */
import * as core from './core.js'
import type { Diagnostic } from '../diagnostics.js'
import { printable } from '../log.js'
import type { Change } from '../plan/types.js'

export const ANNOTATION_LIMIT = 10

const DEFERRED_WORDS: Record<NonNullable<Change['deferred']>, string> = {
  prune: 'needs prune',
  release: 'waits for a release',
  'in-use': 'not deleted: still in use',
  'own-user': "not removed: the API key's own user"
}

export function annotateDiagnostics(diagnostics: readonly Diagnostic[]): { shown: number; total: number } {
  const counts = { error: 0, warning: 0, notice: 0 }
  for (const d of diagnostics) {
    if (counts[d.severity] >= ANNOTATION_LIMIT) continue
    counts[d.severity]++
    // Names in messages may hold bidirectional controls or invisible characters: shown, not obeyed.
    const message = printable(d.field ? `${d.field}: ${d.message}` : d.message)
    const props: core.AnnotationProperties = { title: `obsdeploy ${d.stage}` }
    if (d.file) {
      props.file = d.file
      if (d.line) props.startLine = d.line
      if (d.column) props.startColumn = d.column
    }
    if (d.severity === 'error') core.error(message, props)
    else if (d.severity === 'warning') core.warning(message, props)
    else core.notice(message, props)
  }
  const shown = counts.error + counts.warning + counts.notice
  return { shown, total: diagnostics.length }
}

/** A notice at the manifest line of each changed resource, within the notice budget left. */
export function annotateChanges(
  changes: readonly Change[],
  noticesUsed: number
): { shown: number; total: number } {
  const located = changes.filter(c => c.source && c.action !== 'noop')
  const budget = Math.max(0, ANNOTATION_LIMIT - noticesUsed)
  for (const c of located.slice(0, budget)) {
    core.notice(
      `${c.kind} "${printable(c.name, 200)}": ${c.action}${c.deferred ? ` (${DEFERRED_WORDS[c.deferred]})` : ''}`,
      {
        title: 'obsdeploy plan',
        file: c.source!.file,
        startLine: c.source!.line
      }
    )
  }
  return { shown: Math.min(budget, located.length), total: located.length }
}
