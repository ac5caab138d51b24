/**
 * `${NAME}` placeholders, so one set of manifests serves several environments. A value that is exactly
 * one placeholder takes the variable's YAML type (a threshold stays a number); inside a longer string the
 * value is interpolated as text. `$${NAME}` is a literal `${NAME}`. Mapping keys are names and are left
 * alone. Unknown names are errors at their line.
 */
import { diagnostic, type Diagnostic } from '../diagnostics.js'
import { didYouMean } from './issues.js'
import { formatPath, type PathSegment } from './path.js'
import type { ParsedDocument } from './yaml.js'

export type Variables = Readonly<Record<string, unknown>>

const PLACEHOLDER = /\$(\$?)\{([^}]*)\}/g
const WHOLE = /^\$\{([^}]*)\}$/
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/

/** The document's value with placeholders replaced, and the problems found. */
export function substituteVariables(
  doc: ParsedDocument,
  vars: Variables
): { value: unknown; diagnostics: Diagnostic[] } {
  const names = Object.keys(vars)
  const diagnostics: Diagnostic[] = []
  const problem = (path: PathSegment[], message: string) =>
    diagnostics.push(
      diagnostic('validate', 'error', message, { ...doc.locate(path), field: formatPath(path) })
    )

  const walk = (value: unknown, path: PathSegment[]): unknown => {
    if (typeof value === 'string') return value.includes('${') ? substitute(value, path) : value
    if (Array.isArray(value)) return value.map((v, i) => walk(v, [...path, i]))
    if (value !== null && typeof value === 'object') {
      const out: Record<string, unknown> = {}
      for (const [k, v] of Object.entries(value)) out[k] = walk(v, [...path, k])
      return out
    }
    return value
  }

  const substitute = (text: string, path: PathSegment[]): unknown => {
    const whole = WHOLE.exec(text)
    if (whole) {
      const message = checkName(whole[1]!, names)
      if (message) {
        problem(path, message)
        return text
      }
      return vars[whole[1]!]
    }
    return text.replace(PLACEHOLDER, (match, escape: string, name: string) => {
      if (escape) return match.slice(1)
      const message = checkName(name, names)
      if (message) {
        problem(path, message)
        return match
      }
      const value = vars[name]
      if (value !== null && typeof value === 'object') {
        problem(
          path,
          `variable ${name} is a ${Array.isArray(value) ? 'list' : 'mapping'} and cannot be part of a string`
        )
        return match
      }
      // An empty (null) value interpolates as nothing, not as the word "null".
      return value === null || value === undefined ? '' : String(value)
    })
  }

  return { value: walk(doc.value, []), diagnostics }
}

function checkName(name: string, names: readonly string[]): string | undefined {
  if (!NAME.test(name)) return `"\${${name}}" is not a valid placeholder (names are letters, digits and _)`
  if (names.includes(name)) return undefined
  const guess = didYouMean(name, names)
  const known =
    names.length === 0
      ? 'no variables are set (`vars` input, or --var/--vars-file)'
      : `known: ${names.join(', ')}`
  return `unknown variable \${${name}}${guess ? ` (did you mean \${${guess}}?)` : ''}; ${known}`
}
