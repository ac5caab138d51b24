/**
 * zod issues -> diagnostics with a place and a plain message, and "did you mean" hints for misspelled
 * fields and values.
 */
import { distance } from 'fastest-levenshtein'
import type { z } from 'zod'
import { diagnostic, type Diagnostic } from '../diagnostics.js'
import { describeValue } from '../error-message.js'
import { formatPath, type PathSegment } from './path.js'
import type { ParsedDocument } from './yaml.js'

/** The closest candidate when it is close enough to be a plausible typo. */
export function didYouMean(input: string, candidates: readonly string[]): string | undefined {
  const lower = input.toLowerCase()
  const exactCase = candidates.find(c => c.toLowerCase() === lower)
  if (exactCase) return exactCase
  let best: string | undefined
  let bestDistance = Infinity
  for (const c of candidates) {
    const d = distance(lower, c.toLowerCase())
    if (d < bestDistance) {
      best = c
      bestDistance = d
    }
  }
  // Short words are close to everything: the shorter the input, the closer a guess must be.
  const allowed = input.length <= 2 ? 1 : Math.max(2, Math.floor(input.length / 3))
  return best !== undefined && bestDistance <= allowed ? best : undefined
}

const hint = (input: unknown, candidates: readonly string[]): string => {
  if (typeof input !== 'string') return ''
  const guess = didYouMean(input, candidates)
  return guess ? ` (did you mean "${guess}"?)` : ''
}

type Issue = z.core.$ZodIssue & { input?: unknown }

export function issuesToDiagnostics(
  issues: readonly Issue[],
  doc: ParsedDocument,
  schema: z.ZodType
): Diagnostic[] {
  const out: Diagnostic[] = []
  for (const issue of issues) {
    const path = issue.path as PathSegment[]
    if (issue.code === 'unrecognized_keys') {
      const known = knownKeysAt(schema, doc.value, path)
      for (const key of issue.keys) {
        const at = doc.locateKey(path, key)
        const guess = didYouMean(key, known)
        const list = known.length > 0 && !guess ? `; known fields: ${known.join(', ')}` : ''
        out.push(
          diagnostic(
            'validate',
            'error',
            `unknown field "${key}"${guess ? ` (did you mean "${guess}"?)` : list}`,
            {
              ...at,
              field: formatPath([...path, key])
            }
          )
        )
      }
      continue
    }
    const missing = issue.code === 'invalid_type' && issue.input === undefined
    const at = doc.locate(path)
    const message = messageFor(issue, missing) + quoteHint(issue, doc, path)
    out.push(diagnostic('validate', 'error', message, { ...at, field: formatPath(path) }))
  }
  return out
}

function messageFor(issue: Issue, missing: boolean): string {
  const custom = !/^(Invalid|Too (small|big)|Expected)/.test(issue.message)
  switch (issue.code) {
    case 'invalid_type':
      if (missing) return 'is required'
      if (custom) return `${issue.message} (got ${describeValue(issue.input)})`
      return `must be ${article(issue.expected)}, got ${describeValue(issue.input)}`
    case 'invalid_value': {
      const values = issue.values.map(v => String(v))
      if (issue.input === undefined) return `is required: one of ${values.join(', ')}`
      return `must be one of ${values.join(', ')}, got ${describeValue(issue.input)}${hint(issue.input, values)}`
    }
    case 'invalid_union': {
      const disc = (issue as { discriminator?: string; options?: unknown[] }).options
      if (disc) {
        const values = disc.map(v => String(v))
        const input = (issue.input as Record<string, unknown> | undefined)?.[
          String(issue.path[issue.path.length - 1])
        ]
        if (input === undefined) return `is required: one of ${values.join(', ')}`
        return `must be one of ${values.join(', ')}, got ${describeValue(input)}${hint(input, values)}`
      }
      return custom ? issue.message : 'does not match any of the allowed forms'
    }
    case 'too_small':
    case 'too_big': {
      if (custom) return issue.message
      const small = issue.code === 'too_small'
      const bound = small
        ? (issue as { minimum: number | bigint }).minimum
        : (issue as { maximum: number | bigint }).maximum
      const origin = (issue as { origin?: string }).origin
      const what = small ? 'at least' : 'at most'
      if (origin === 'array') return `must have ${what} ${bound} item${Number(bound) === 1 ? '' : 's'}`
      if (origin === 'string') return `must be ${what} ${bound} character${Number(bound) === 1 ? '' : 's'}`
      return `must be ${what} ${bound}`
    }
    default:
      return issue.message
  }
}

/**
 * YAML reads `name: 12345` or `name: true` as a number or a boolean: where text is wanted, the fix is
 * quotes, shown with the field and the value as written (`name: "1.0"`, not the number's `1`).
 */
function quoteHint(issue: Issue, doc: ParsedDocument, path: readonly PathSegment[]): string {
  if (issue.code !== 'invalid_type' || issue.expected !== 'string') return ''
  if (typeof issue.input !== 'number' && typeof issue.input !== 'boolean') return ''
  const written = doc.scalarAt(path)?.source ?? String(issue.input)
  const last = path[path.length - 1]
  const quoted = JSON.stringify(written)
  return `: quote it to keep it as text, e.g. ${typeof last === 'string' ? `${last}: ${quoted}` : `- ${quoted}`}`
}

const article = (t: string): string => {
  const names: Record<string, string> = {
    int: 'a whole number',
    number: 'a number',
    string: 'a string',
    boolean: 'true or false',
    array: 'a list',
    object: 'a mapping'
  }
  return names[t] ?? t
}

/**
 * The field names the schema allows at `path`, following the data through unions, so that a typo is
 * compared with the fields of the right variant (a `time` series, not a `markdown` one).
 */
export function knownKeysAt(schema: z.ZodType, rootValue: unknown, path: readonly PathSegment[]): string[] {
  let value: unknown = rootValue
  let current: ZodLike | undefined = schema as unknown as ZodLike
  for (const seg of path) {
    current = pick(unwrap(current), value)
    if (!current) return []
    const def: ZodDef = unwrap(current)?._zod.def ?? { type: 'unknown' }
    if (def.type === 'object' && typeof seg === 'string') current = def.shape?.[seg]
    else if (def.type === 'array' && typeof seg === 'number') current = def.element
    else return []
    value = (value as Record<string | number, unknown> | undefined)?.[seg]
  }
  const last = pick(unwrap(current), value)
  const def = unwrap(last)?._zod.def
  return def?.type === 'object' ? Object.keys(def.shape ?? {}) : []
}

interface ZodDef {
  type: string
  shape?: Record<string, ZodLike>
  element?: ZodLike
  innerType?: ZodLike
  options?: ZodLike[]
  discriminator?: string
  values?: unknown[]
}
interface ZodLike {
  _zod: { def: ZodDef }
}

function unwrap(s: ZodLike | undefined): ZodLike | undefined {
  let cur = s
  while (cur && ['optional', 'nullable', 'default', 'readonly'].includes(cur._zod.def.type))
    cur = cur._zod.def.innerType
  return cur
}

/** For a union (unions nested in it too), the option that fits the data: by discriminator, or the first object. */
function pick(s: ZodLike | undefined, value: unknown): ZodLike | undefined {
  let current = s
  while (current && unwrap(current)?._zod.def.type === 'union') current = choose(unwrap(current)!, value)
  return current
}

function choose(union: ZodLike, value: unknown): ZodLike | undefined {
  const { options = [], discriminator } = union._zod.def
  if (discriminator && value && typeof value === 'object') {
    const tag = (value as Record<string, unknown>)[discriminator]
    const match = options.find(o => accepts(o, discriminator, tag))
    if (match) return match
  }
  return options.find(o => unwrap(o)?._zod.def.type === 'object') ?? options[0]
}

/** Whether an option (or an option of a nested union) takes this discriminator value; absent for `undefined`. */
function accepts(option: ZodLike, key: string, tag: unknown): boolean {
  const o = unwrap(option)
  if (o?._zod.def.type === 'union') return (o._zod.def.options ?? []).some(x => accepts(x, key, tag))
  const field = o?._zod.def.shape?.[key]
  const def = field ? unwrap(field)?._zod.def : undefined
  if (!def) return false
  if (def.type === 'undefined') return tag === undefined
  return def.values?.includes(tag) ?? false
}
