/**
 * `${NAME}` placeholders, so one set of manifests serves several environments. A value that is exactly
 * one placeholder takes the variable's YAML type (a threshold stays a number); inside a longer string the
 * value is interpolated as text. `$${NAME}` is a literal `${NAME}`. Mapping keys are names and are left
 * alone. Unknown names are errors at their line.
 *
 * `${secret.NAME}` takes a secret variable (the `secret-vars` input, `OBSDEPLOY_SECRET_<NAME>` in the
 * CLI). It must be the whole value, and the places it filled are recorded on the document, so validation
 * can tell a secret field written from a secret from one written as text (rules.ts), and plans show such
 * a value only as changed or unchanged. Validation is offline, like `terraform validate`: with
 * `secretValues: 'optional'` a secret that is not set is no error (a fork's pull request has none) and
 * stays a placeholder, whose value checks wait for the plan; only plan and apply need the values.
 */
import { diagnostic, type Diagnostic } from '../diagnostics.js'
import { didYouMean } from './issues.js'
import { formatPath, type PathSegment } from './path.js'
import type { ParsedDocument } from './yaml.js'

export type Variables = Readonly<Record<string, unknown>>
export type Secrets = Readonly<Record<string, string>>
/** Whether a secret placeholder needs its value: 'required' to plan, 'optional' to validate. */
export type SecretValues = 'required' | 'optional'

const PLACEHOLDER = /\$(\$?)\{([^}]*)\}/g
const WHOLE = /^\$\{([^}]*)\}$/
const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/
const SECRET_PREFIX = 'secret.'

/** The document's value with placeholders replaced, and the problems found. */
export function substituteVariables(
  doc: ParsedDocument,
  vars: Variables,
  secrets: Secrets = {},
  secretValues: SecretValues = 'required'
): {
  value: unknown
  diagnostics: Diagnostic[]
  secretPaths: Map<string, string>
  /** Paths a secret without a value fills (they hold the placeholder itself): only with 'optional'. */
  unsetSecretPaths: Set<string>
} {
  const names = Object.keys(vars)
  const secretNames = Object.keys(secrets)
  /** Formatted path -> the secret variable that filled it. */
  const secretPaths = new Map<string, string>()
  const unsetSecretPaths = new Set<string>()
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
    if (whole?.[1]!.startsWith(SECRET_PREFIX)) {
      const name = whole[1]!.slice(SECRET_PREFIX.length)
      const unset = secretValues === 'optional' && NAME.test(name) && !secretNames.includes(name)
      const message = unset ? undefined : checkSecretName(name, secretNames)
      if (message) {
        problem(path, message)
        return text
      }
      secretPaths.set(formatPath(path), name)
      if (!unset) return secrets[name]
      unsetSecretPaths.add(formatPath(path))
      return text
    }
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
      if (name.startsWith(SECRET_PREFIX)) {
        problem(
          path,
          `\${${name}} must be the whole value: a secret is never part of a longer text (it would show in plans)`
        )
        return match
      }
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

  return { value: walk(doc.value, []), diagnostics, secretPaths, unsetSecretPaths }
}

function checkSecretName(name: string, names: readonly string[]): string | undefined {
  if (!NAME.test(name))
    return `"\${secret.${name}}" is not a valid secret placeholder (names are letters, digits and _)`
  if (names.includes(name)) return undefined
  const guess = didYouMean(name, names)
  return `unknown secret variable \${secret.${name}}${guess ? ` (did you mean \${secret.${guess}}?)` : ''}: set it with the \`secret-vars\` input (the CLI: environment variable OBSDEPLOY_SECRET_${name})`
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
