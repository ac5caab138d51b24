/**
 * A problem found anywhere in the pipeline, with the place it points at. Errors are values: only the
 * entry points turn them into exit codes, annotations or report lines.
 */
export type Severity = 'error' | 'warning' | 'notice'

export interface SourceLocation {
  file: string
  line: number
  column: number
}

export interface Diagnostic {
  severity: Severity
  message: string
  /** Where in a manifest, when the problem has a place. */
  file?: string
  line?: number
  column?: number
  /** Field path inside the manifest document, e.g. `tiles[0].w`. */
  field?: string
  /** Which stage found it: validation runs offline, plan needs the live API. */
  stage: 'validate' | 'plan' | 'apply' | 'config'
}

export function diagnostic(
  stage: Diagnostic['stage'],
  severity: Severity,
  message: string,
  at?: Partial<SourceLocation> & { field?: string }
): Diagnostic {
  const d: Diagnostic = { severity, message, stage }
  if (at?.file !== undefined) d.file = at.file
  if (at?.line !== undefined) d.line = at.line
  if (at?.column !== undefined) d.column = at.column
  if (at?.field) d.field = at.field
  return d
}

/** `file:line:col field: message`, the one line format of the CLI and of logs. */
export function formatDiagnostic(d: Diagnostic): string {
  const place = d.file ? `${d.file}${d.line ? `:${d.line}${d.column ? `:${d.column}` : ''}` : ''}` : ''
  const field = d.field ? `${d.field}: ` : ''
  const head = place ? `${place} ` : ''
  const sev = d.severity === 'error' ? '' : `${d.severity}: `
  return `${head}${sev}${field}${d.message}`
}

export const hasErrors = (ds: readonly Diagnostic[]): boolean => ds.some(d => d.severity === 'error')

/** Stable order for reports: by file, line, column, then message. */
export function sortDiagnostics(ds: readonly Diagnostic[]): Diagnostic[] {
  return [...ds].sort(
    (a, b) =>
      (a.file ?? '').localeCompare(b.file ?? '') ||
      (a.line ?? 0) - (b.line ?? 0) ||
      (a.column ?? 0) - (b.column ?? 0) ||
      a.message.localeCompare(b.message)
  )
}
