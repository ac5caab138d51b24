/**
 * `${NAME}` placeholders, so one set of manifests serves several environments. A plain scalar that is
 * exactly one placeholder takes the variable's YAML type (a threshold stays a number); inside a longer
 * string, or a quoted one, the value is interpolated as text. `$${NAME}` is a literal `${NAME}`.
 */
import { isScalar, visit, type Document, type Node } from 'yaml'
import { diagnostic, type Diagnostic, type SourceLocation } from '../diagnostics.js'
import { didYouMean } from './issues.js'
import type { DocumentTransform } from './yaml.js'

export type Variables = Readonly<Record<string, unknown>>

const PLACEHOLDER = /\$(\$?)\{([^}]*)\}/g
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/

export function variableTransform(vars: Variables): DocumentTransform {
  const names = Object.keys(vars)
  return (doc: Document.Parsed, at: (node: Node | undefined) => SourceLocation): Diagnostic[] => {
    const problems: Diagnostic[] = []
    visit(doc, {
      Scalar(key, node) {
        // Keys are names, not values: leave them alone.
        if (key === 'key' || typeof node.value !== 'string' || !node.value.includes('${')) return undefined
        const raw = node.value
        const loc = at(node)
        const quoted = node.type === 'QUOTE_DOUBLE' || node.type === 'QUOTE_SINGLE'
        const whole = /^\$\{([^}]*)\}$/.exec(raw)
        if (whole && !quoted) {
          const name = whole[1]!
          const problem = checkName(name, names, loc)
          if (problem) {
            problems.push(problem)
            return undefined
          }
          const replacement = doc.createNode(vars[name]) as Node
          replacement.range = node.range
          return replacement
        }
        let failed = false
        const text = raw.replace(PLACEHOLDER, (match, escape: string, name: string) => {
          if (escape) return match.slice(1)
          const problem = checkName(name, names, loc)
          if (problem) {
            problems.push(problem)
            failed = true
            return match
          }
          const value = vars[name]
          if (value !== null && typeof value === 'object') {
            problems.push(
              diagnostic(
                'validate',
                'error',
                `variable ${name} is a ${Array.isArray(value) ? 'list' : 'mapping'} and cannot be part of a string`,
                loc
              )
            )
            failed = true
            return match
          }
          // An empty (null) value interpolates as nothing, not as the word "null".
          return value === null || value === undefined ? '' : String(value)
        })
        if (!failed && text !== raw) {
          if (isScalar(node)) node.value = text
        }
        return undefined
      }
    })
    return problems
  }
}

function checkName(name: string, names: readonly string[], at: SourceLocation): Diagnostic | undefined {
  if (!NAME.test(name)) {
    return diagnostic(
      'validate',
      'error',
      `"\${${name}}" is not a valid placeholder (names are letters, digits and _)`,
      at
    )
  }
  if (names.includes(name)) return undefined
  const guess = didYouMean(name, names)
  const known =
    names.length === 0
      ? 'no variables are set (`vars` input, or --var/--vars-file)'
      : `known: ${names.join(', ')}`
  return diagnostic(
    'validate',
    'error',
    `unknown variable \${${name}}${guess ? ` (did you mean \${${guess}}?)` : ''}; ${known}`,
    at
  )
}
