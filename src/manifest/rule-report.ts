/** How a manifest rule reports a problem: at a field path of its document, as a diagnostic with file and line. */
import type { Diagnostic } from '../diagnostics.js'
import { diagnostic } from '../diagnostics.js'
import { formatPath, type PathSegment } from './path.js'
import type { ParsedDocument } from './yaml.js'

/** Reports at `path`; `near` is where to point when the field itself is missing. */
export type Report = (
  path: readonly PathSegment[],
  message: string,
  near?: readonly PathSegment[],
  severity?: 'error' | 'warning'
) => void

export function reporter(doc: ParsedDocument, out: Diagnostic[]): Report {
  return (path, message, near, severity = 'error') =>
    out.push(
      diagnostic('validate', severity, message, { ...doc.locate(near ?? path), field: formatPath(path) })
    )
}
