/**
 * Suppressions: `# obsdeploy: allow <rule-id> -- <reason>` on a resource's first line or on a comment line
 * just before it. The reason is required: an exception is reviewed like any change, so it says why.
 */
export interface Suppression {
  rule: string
  /** Empty when the comment gives none (an error). */
  reason: string
  line: number
  column: number
}

const MARK = /#\s*obsdeploy:\s*allow\b(.*)$/
const BODY = /^\s+(\S+)\s*(?:--\s*(.*))?$/

/** The suppressions written for the document whose first content is on `line` (1-based) of `lines`. */
export function suppressionsAt(
  lines: readonly string[],
  line: number
): Array<Suppression | { line: number; column: number; malformed: true }> {
  const out: Array<Suppression | { line: number; column: number; malformed: true }> = []
  const read = (n: number, commentOnly: boolean) => {
    const text = lines[n - 1]
    if (text === undefined) return
    if (commentOnly && !text.trimStart().startsWith('#')) return
    const found = MARK.exec(text)
    if (!found) return
    const column = found.index + 1
    const body = BODY.exec(found[1]!)
    if (!body) out.push({ line: n, column, malformed: true })
    else out.push({ rule: body[1]!, reason: (body[2] ?? '').trim(), line: n, column })
  }
  read(line - 1, true)
  read(line, false)
  return out
}
