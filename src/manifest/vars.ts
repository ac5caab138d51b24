/**
 * `${NAME}` placeholders, so one set of manifests serves several environments. A value that is exactly
 * one placeholder takes the variable's YAML type (a threshold stays a number); inside a longer string the
 * value is interpolated as text. `$${NAME}` is a literal `${NAME}`. Mapping keys are names and are left
 * alone. Unknown names are errors at their line.
 *
 * `${secret.NAME}` takes a secret variable (the `secret-vars` input, `OBSDEPLOY_SECRET_<NAME>` in the
 * CLI). It must be the whole value, and the places it filled are recorded on the document, so validation
 * can tell a secret field written from a secret from one written as text (resource-rules.ts), and plans
 * show such a value only as changed or unchanged. Validation is offline, like `terraform validate`: with
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
  const run = new Substitution(doc, vars, secrets, secretValues)
  const value = run.walk(doc.value, [])
  return {
    value,
    diagnostics: run.diagnostics,
    secretPaths: run.secretPaths,
    unsetSecretPaths: run.unsetSecretPaths
  }
}

/** One document's substitution: the problems it finds, and the places secrets fill. */
class Substitution {
  private readonly names: string[]
  private readonly secretNames: string[]
  /** Formatted path -> the secret variable that filled it. */
  readonly secretPaths = new Map<string, string>()
  readonly unsetSecretPaths = new Set<string>()
  readonly diagnostics: Diagnostic[] = []

  constructor(
    private readonly doc: ParsedDocument,
    private readonly vars: Variables,
    private readonly secrets: Secrets,
    private readonly secretValues: SecretValues
  ) {
    this.names = Object.keys(vars)
    this.secretNames = Object.keys(secrets)
  }

  walk(value: unknown, path: PathSegment[]): unknown {
    if (typeof value === 'string') return value.includes('${') ? this.substitute(value, path) : value
    if (Array.isArray(value)) return value.map((v, i) => this.walk(v, [...path, i]))
    if (value !== null && typeof value === 'object') {
      const out: Record<string, unknown> = {}
      for (const [k, v] of Object.entries(value)) out[k] = this.walk(v, [...path, k])
      return out
    }
    return value
  }

  private problem(path: PathSegment[], message: string): void {
    this.diagnostics.push(
      diagnostic('validate', 'error', message, { ...this.doc.locate(path), field: formatPath(path) })
    )
  }

  /** A value that is one placeholder takes the variable's own type; a secret must be the whole value. */
  private substitute(text: string, path: PathSegment[]): unknown {
    const whole = WHOLE.exec(text)
    if (whole?.[1]!.startsWith(SECRET_PREFIX))
      return this.secret(whole[1]!.slice(SECRET_PREFIX.length), text, path)
    if (whole) {
      const message = checkName(whole[1]!, this.names)
      if (message) {
        this.problem(path, message)
        return text
      }
      return this.vars[whole[1]!]
    }
    return this.interpolate(text, path)
  }

  /** `${secret.NAME}`: its value, recorded at its path (unset with 'optional': the placeholder stays). */
  private secret(name: string, text: string, path: PathSegment[]): unknown {
    const unset = this.secretValues === 'optional' && NAME.test(name) && !this.secretNames.includes(name)
    const message = unset ? undefined : checkSecretName(name, this.secretNames)
    if (message) {
      this.problem(path, message)
      return text
    }
    this.secretPaths.set(formatPath(path), name)
    if (!unset) return this.secrets[name]
    this.unsetSecretPaths.add(formatPath(path))
    return text
  }

  /** Placeholders inside a longer text: each variable's value as text. */
  private interpolate(text: string, path: PathSegment[]): string {
    return text.replace(PLACEHOLDER, (match, escape: string, name: string) => {
      if (escape) return match.slice(1)
      if (name.startsWith(SECRET_PREFIX)) {
        this.problem(
          path,
          `\${${name}} must be the whole value: a secret is never part of a longer text (it would show in plans)`
        )
        return match
      }
      const message = checkName(name, this.names)
      if (message) {
        this.problem(path, message)
        return match
      }
      const value = this.vars[name]
      if (value !== null && typeof value === 'object') {
        this.problem(
          path,
          `variable ${name} is a ${Array.isArray(value) ? 'list' : 'mapping'} and cannot be part of a string`
        )
        return match
      }
      // An empty (null) value interpolates as nothing, not as the word "null".
      return value === null || value === undefined ? '' : String(value)
    })
  }
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
