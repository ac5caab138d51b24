/**
 * What a rule can see, as types: the declared shape of `resource` for each kind (derived from the zod
 * schema the manifests are validated with, so a new field is known to rules the day it is added), and of
 * `change`, `plan` and `labels` for plan-time rules. The CEL checker (cel.ts) reads these to refuse, at
 * load, a misspelt field or a wrong type; the evaluation itself still runs on the plain values.
 *
 * A rule sees a manifest as written (its zod input, not the parsed output), so a schema's input side is
 * what counts: a pipe's input, a default's inner type. YAML numbers are JavaScript numbers, which CEL reads
 * as doubles; they are declared `number` and compare with integer literals (`resource.threshold > 0`).
 */
import { kindSchema } from '../manifest/schema.js'
import { MANIFEST_KINDS, type ManifestKind } from '../manifest/vocabulary.js'

export type Shape =
  | { type: 'string' | 'bool' | 'number' | 'dyn' }
  | { type: 'list' | 'map'; of: Shape }
  | { type: 'object'; name: string; fields: Readonly<Record<string, Shape>> }

export const DYN: Shape = { type: 'dyn' }
const STRING: Shape = { type: 'string' }
const NUMBER: Shape = { type: 'number' }
const listOf = (of: Shape): Shape => ({ type: 'list', of })
const object = (name: string, fields: Record<string, Shape>): Shape => ({ type: 'object', name, fields })

/** The variables a rule's check reads, by name, with their shapes. */
export type Declarations = Readonly<Record<string, Shape>>

const byKind = new Map<ManifestKind, Shape>()

/** The shape of a manifest of `kind` as written (managed mode's schema: the wider of the two). */
export function kindShape(kind: ManifestKind): Shape {
  let shape = byKind.get(kind)
  if (!shape) {
    shape = fromZod(kindSchema(kind, 'managed') as unknown as ZodLike, kind, new Map())
    byKind.set(kind, shape)
  }
  return shape
}

/** `resource` of a rule over `kinds` (every kind when absent): a field is known when any of the kinds declares it. */
export function resourceShape(kinds: readonly ManifestKind[] | undefined): Shape {
  const shapes = (kinds ?? MANIFEST_KINDS).map(kindShape)
  return shapes.reduce((a, b) => merge(a, b))
}

const declared = new Map<string, Declarations>()

/**
 * The variables of a rule over `kinds`: `resource`, and for a plan-time rule `change`, `plan` and `labels`.
 * One object per scope, so the checker declares each scope once however many rules share it.
 */
export function declarationsFor(kinds: readonly ManifestKind[] | undefined, onPlan: boolean): Declarations {
  const key = `${onPlan ? 'plan' : 'manifest'}:${kinds ? [...kinds].sort().join(',') : '*'}`
  let found = declared.get(key)
  if (!found) {
    found = { resource: resourceShape(kinds), ...(onPlan ? planDeclarations() : {}) }
    declared.set(key, found)
  }
  return found
}

/** What a plan-time rule reads beside `resource` (the values check.ts builds for each change). */
export function planDeclarations(): Declarations {
  const perKind = (name: string, of: Shape) =>
    object(name, Object.fromEntries(MANIFEST_KINDS.map(k => [k, of])))
  return {
    change: object('change', {
      kind: STRING,
      name: STRING,
      address: STRING,
      action: STRING,
      deferred: STRING,
      id: STRING,
      tags: listOf(STRING),
      query: object('change.query', { status: STRING, reason: STRING })
    }),
    plan: object('plan', {
      stack: STRING,
      counts: object(
        'plan.counts',
        Object.fromEntries(
          ['create', 'update', 'replace', 'delete', 'noop', 'deferred'].map(a => [a, NUMBER])
        )
      ),
      after: perKind('plan.after', NUMBER),
      elsewhere: perKind('plan.elsewhere', { type: 'map', of: listOf(STRING) })
    }),
    labels: listOf(STRING)
  }
}

/**
 * Two shapes as one: the union of an object's fields (a field both declare takes both shapes), lists and
 * maps element by element; anything else that differs is `dyn`, which the checker lets through.
 */
export function merge(a: Shape, b: Shape): Shape {
  if (a === b) return a
  if (a.type === 'object' && b.type === 'object') {
    const fields: Record<string, Shape> = { ...a.fields }
    for (const [k, s] of Object.entries(b.fields)) fields[k] = fields[k] ? merge(fields[k], s) : s
    return object(a.name === b.name ? a.name : `${a.name}_or_${b.name}`, fields)
  }
  if ((a.type === 'list' || a.type === 'map') && a.type === b.type)
    return { type: a.type, of: merge(a.of, (b as { of: Shape }).of) }
  return a.type === b.type && a.type !== 'list' && a.type !== 'map' ? a : DYN
}

interface ZodDef {
  type: string
  shape?: Record<string, ZodLike>
  catchall?: ZodLike
  element?: ZodLike
  innerType?: ZodLike
  options?: ZodLike[]
  valueType?: ZodLike
  in?: ZodLike
  getter?: () => ZodLike
  entries?: Record<string, unknown>
  values?: unknown[]
}
interface ZodLike {
  _zod: { def: ZodDef }
}

/**
 * The CEL shape of a zod schema's input; `name` names an object by where it is (`Dashboard.tiles`: a tile;
 * names are CEL type names, so letters, digits, `_` and `.` only).
 */
function fromZod(schema: ZodLike, name: string, seen: Map<ZodLike, Shape>): Shape {
  const known = seen.get(schema)
  if (known) return known
  // A schema that refers to itself (z.lazy) is `dyn` below its first appearance.
  seen.set(schema, DYN)
  const shape = shapeOf(schema._zod.def, name, seen)
  seen.set(schema, shape)
  return shape
}

function shapeOf(def: ZodDef, name: string, seen: Map<ZodLike, Shape>): Shape {
  switch (def.type) {
    case 'string':
    case 'template_literal':
      return STRING
    case 'number':
    case 'int':
      return NUMBER
    case 'boolean':
      return { type: 'bool' }
    case 'enum':
      return primitivesOf(Object.values(def.entries ?? {}))
    case 'literal':
      return primitivesOf(def.values ?? [])
    case 'optional':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
    case 'nonoptional':
      return fromZod(def.innerType!, name, seen)
    case 'pipe':
      return fromZod(def.in!, name, seen)
    case 'lazy':
      return fromZod(def.getter!(), name, seen)
    case 'array':
      return listOf(fromZod(def.element!, name, seen))
    case 'record':
      return { type: 'map', of: fromZod(def.valueType!, name, seen) }
    case 'object': {
      // An object that takes keys it does not list is read as a map: any key may be there.
      if (def.catchall && def.catchall._zod.def.type !== 'never') return { type: 'map', of: DYN }
      const fields: Record<string, Shape> = {}
      for (const [k, v] of Object.entries(def.shape ?? {})) fields[k] = fromZod(v, `${name}.${k}`, seen)
      return object(name, fields)
    }
    case 'union': {
      const options = (def.options ?? []).map(o => fromZod(o, name, seen))
      return options.length ? options.reduce((a, b) => merge(a, b)) : DYN
    }
    // Nullable (null is no string), any, unknown, transforms, custom checks: anything goes.
    default:
      return DYN
  }
}

/** An enum's or a literal's values: strings, numbers or booleans; mixed ones are `dyn`. */
function primitivesOf(values: readonly unknown[]): Shape {
  const types = new Set(values.map(v => typeof v))
  if (types.size !== 1) return DYN
  const [t] = types
  return t === 'string' ? STRING : t === 'number' ? NUMBER : t === 'boolean' ? { type: 'bool' } : DYN
}
