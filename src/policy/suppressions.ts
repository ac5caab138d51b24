/**
 * Suppressions as the checks honour them: each document's `# obsdeploy: allow <rule-id> -- <reason>`
 * comments (suppress.ts reads them) against the rules of the stack. One without a reason, of an unknown
 * rule, or of a rule that may not be suppressed is reported; each one honoured is listed, so the exception is
 * reviewed with the change, and one a pull request adds is a warning its report's heading names.
 */
import { diagnostic, type Diagnostic } from '../diagnostics.js'
import type { ManifestSet } from '../manifest/load.js'
import type { AddedSuppression } from '../plan/policy-review.js'
import { label, type PolicyDocument, type Rule } from './rules.js'
import { resourceKey, suppressionKey } from './sources.js'
import { suppressionsAt, type Suppression } from './suppress.js'

/**
 * Each document's suppressions, from the lines the loader kept of each file that mentions one (the text it
 * validated); a malformed one, one without a reason, of an unknown rule or of a rule that may not be
 * suppressed is reported. Each one is listed, so the exception is reviewed with the change; one the pull
 * request adds (`added`, with a base commit) is a warning, and the report's heading names it.
 */
export function withSuppressions(
  docs: NonNullable<ManifestSet['documents']>,
  lines: ReadonlyMap<string, readonly string[]>,
  rules: readonly Rule[],
  added: ((file: string, key: string) => boolean) | undefined,
  out: Diagnostic[]
): { documents: PolicyDocument[]; added: AddedSuppression[] } {
  const byId = new Map(rules.map(r => [r.id, r]))
  const result: PolicyDocument[] = []
  const adds: AddedSuppression[] = []
  for (const d of docs) {
    const text = lines.get(d.doc.file)
    const suppressions: Suppression[] = []
    // A document's start asks for the file's positions (a second parse): only files with a suppression need it.
    const found = text ? suppressionsAt(text, d.doc.start.line) : []
    for (const s of found) {
      const at = { file: d.doc.file, line: s.line, column: s.column }
      if ('malformed' in s) {
        out.push(
          diagnostic(
            'validate',
            'error',
            'a suppression is written `# obsdeploy: allow <rule-id> -- <reason>`',
            at
          )
        )
        continue
      }
      if (!s.reason) {
        out.push(
          diagnostic(
            'validate',
            'error',
            `the suppression of policy rule "${s.rule}" has no reason: write \`# obsdeploy: allow ${s.rule} -- <why>\``,
            at
          )
        )
        continue
      }
      const rule = byId.get(s.rule)
      if (!rule) {
        out.push(diagnostic('validate', 'warning', `no policy rule "${s.rule}" to suppress here`, at))
        continue
      }
      if (rule.suppressible === false) {
        out.push(
          diagnostic(
            'validate',
            'error',
            `policy rule "${s.rule}" cannot be suppressed (suppressible: false in ${rule.from}): remove this comment and make ${d.kind} ${label(d)} meet the rule`,
            at
          )
        )
        continue
      }
      suppressions.push(s)
      const key = resourceKey(d.kind, d.value)
      const isNew =
        added !== undefined && key !== undefined && added(d.doc.file, suppressionKey(d.kind, key, s.rule))
      if (isNew) adds.push({ rule: s.rule, kind: d.kind, name: label(d), file: at.file, line: at.line })
      out.push(
        diagnostic(
          'validate',
          isNew ? 'warning' : 'notice',
          `${isNew ? 'this pull request adds a suppression: ' : ''}policy rule "${s.rule}" is suppressed for ${d.kind} ${label(d)}: ${s.reason}`,
          at
        )
      )
    }
    result.push({ ...d, suppressions })
  }
  return { documents: result, added: adds }
}
