/**
 * `npm run fuzz [-- --runs 20000 --seed 42 --time-limit 600 --call-limit 10000]`: fast-check drives
 * validateText with generated and mutated manifests and checks that validation
 *
 *   - never throws,
 *   - never hangs (each call is timed; the slowest is reported, and one over --call-limit ms fails),
 *   - gives every diagnostic a file, a line >= 1 and a non-empty message,
 *   - finds nothing wrong with the valid manifests it generates,
 *   - reports a value of the wrong type at (or under) the field it was put in, on the line of that value.
 *
 * The inputs: valid Dashboard/Alert/ServiceSettings documents (built as objects and serialized with the
 * yaml library in block or flow style, plain or quoted, with or without comments), the same with one field's value replaced by a value of another type, random bytes and
 * strings, YAML token soup, deep nesting, anchors and aliases (including alias bombs), and huge scalars.
 *
 * Nesting stays below the depth where the yaml parser overflows the stack: a second stack overflow in one
 * process aborts Node (a known product bug, covered by an `it.failing` test in
 * test/unit/manifest-yaml.test.ts), which would kill the fuzzer rather than report a counterexample.
 *
 * test/unit/fuzz.test.ts runs a few hundred cases of the same properties with a fixed seed.
 *
 * `--parity` runs the property of scripts/server-parity.ts instead: what validates offline, the emulator accepts.
 */
import { performance } from 'node:perf_hooks'
import { pathToFileURL } from 'node:url'
import fc from 'fast-check'
import { LineCounter, parseAllDocuments, stringify } from 'yaml'
import type { Diagnostic } from '../src/diagnostics.js'
import { formatPath } from '../src/manifest/path.js'
import { validateText } from '../src/manifest/load.js'
import { checkParity, parityCase } from './server-parity.js'
import {
  AGG_FNS,
  ALERT_INTERVALS,
  NUMBER_FORMAT_OUTPUTS,
  NUMERIC_UNITS,
  QUANTILE_LEVELS,
  RELEASE_CHANNELS,
  THRESHOLD_TYPES
} from '../src/manifest/vocabulary.js'

export type Mode = 'self-hosted' | 'managed'

export interface FuzzCase {
  /** Which generator made it, for the statistics. */
  family: string
  text: string
  mode: Mode
  /** Generated to be valid: validation must find nothing. */
  valid?: boolean
  /** A wrong-typed value was put at this path of document `document`: an error must point at or under it. */
  mutated?: { document: number; path: Array<string | number> }
  /** Deep nesting that parses: how deep the document's value is (collections counted from the root). */
  depth?: number
}

/** Deeper than this and the yaml parser may overflow the stack (see the header). */
export const MAX_FUZZ_DEPTH = 250
const FILE = 'fuzz.yaml'

// ---------------------------------------------------------------------------------------------------------
// Valid manifests, as objects.

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
type Obj = { [key: string]: Json }

/** Printable text without `${` (a placeholder would need a variable). */
const text = (maxLength: number, minLength = 1) =>
  fc.string({ unit: 'grapheme', minLength, maxLength }).filter(s => !s.includes('${'))
const word = fc.stringMatching(/^[a-z][a-z0-9_]{0,11}$/)
const sourceName = fc.constantFrom('Logs', 'Traces', 'Metrics', 'Session replays')
const webhookName = fc.constantFrom('ops-pager', 'team-slack', 'alerts')
const webhookId = fc.stringMatching(/^[0-9a-f]{24}$/)
const tag = fc.stringMatching(/^[a-z][a-z0-9-]{0,31}$/).filter(t => !t.startsWith('obsdeploy'))

/** Lucene the server's parser accepts: terms joined with AND/OR, optionally negated or grouped. */
const lucene: fc.Arbitrary<string> = fc
  .array(
    fc.tuple(
      word,
      fc.oneof(
        word,
        fc.integer({ min: 0, max: 1000 }).map(n => `>${n}`),
        fc.constant('*')
      )
    ),
    { minLength: 1, maxLength: 4 }
  )
  .chain(terms =>
    fc
      .array(fc.constantFrom(' AND ', ' OR '), { minLength: terms.length - 1, maxLength: terms.length - 1 })
      .map(ops => terms.map(([f, v], i) => `${i > 0 ? ops[i - 1] : ''}${f}:${v}`).join(''))
  )
  .chain(expr => fc.constantFrom(expr, `NOT ${expr}`, `(${expr})`))

const filterFields = fc.oneof(
  fc.constant({}),
  lucene.map(where => ({ where })),
  lucene.map(where => ({ where, whereLanguage: 'lucene' })),
  fc.constantFrom('level = (', "service = 'checkout'").map(where => ({ where, whereLanguage: 'sql' }))
)

/** aggFn with what it needs: a value for all but count, a level for quantile only. */
function aggregation(valueField: 'field' | 'valueExpression', levels: 'any' | 'fixed'): fc.Arbitrary<Obj> {
  return fc.constantFrom(...AGG_FNS).chain(aggFn => {
    const value = aggFn === 'count' ? fc.constant({}) : word.map(v => ({ [valueField]: v }))
    const level =
      aggFn !== 'quantile'
        ? fc.constant({})
        : levels === 'fixed'
          ? fc.constantFrom(...QUANTILE_LEVELS).map(l => ({ level: l }))
          : fc.constantFrom(...QUANTILE_LEVELS).map(l => ({ level: l }))
    return fc.tuple(value, level).map(([v, l]) => ({ aggFn, ...v, ...l }))
  })
}

const numberFormat = fc.record(
  {
    output: fc.constantFrom(...NUMBER_FORMAT_OUTPUTS),
    mantissa: fc.integer({ min: 0, max: 4 }),
    numericUnit: fc.constantFrom(...NUMERIC_UNITS)
  },
  { requiredKeys: ['output'] }
)

/** What a tile is made of, besides its place, and the display type the server will give it. */
interface TileBody {
  body: Obj
  displayType: string
}

/** A tile body in CONTRACT.md's `series` form: the series agree on type, source and groupBy. */
const seriesBody: fc.Arbitrary<TileBody> = fc
  .record({
    type: fc.constantFrom('time', 'table', 'number', 'search', 'markdown'),
    source: sourceName,
    groupBy: fc.option(fc.uniqueArray(word, { minLength: 1, maxLength: 3 }), { nil: undefined }),
    count: fc.integer({ min: 1, max: 3 }),
    displayType: fc.option(fc.constantFrom('line', 'stacked_bar'), { nil: undefined })
  })
  .chain(({ type, source, groupBy, count, displayType }): fc.Arbitrary<TileBody> => {
    if (type === 'markdown') {
      return text(200, 0).map(content => ({ body: { series: [{ type, content }] }, displayType: 'markdown' }))
    }
    if (type === 'search') {
      return fc
        .tuple(fc.uniqueArray(word, { minLength: 1, maxLength: 4 }), filterFields)
        .map(([fields, filter]) => ({
          body: { series: [{ type, source, fields, ...filter }] },
          displayType: 'search'
        }))
    }
    const n = type === 'number' ? 1 : count
    const one = fc
      .tuple(aggregation('field', 'any'), filterFields, fc.option(numberFormat, { nil: undefined }))
      .map(([agg, filter, format]) => {
        const s: Obj = { type, source, ...agg, ...filter }
        if (groupBy && type !== 'number') s.groupBy = groupBy
        if (type === 'time' && displayType) s.displayType = displayType
        if (format) s.numberFormat = format as Obj
        return s
      })
    return fc.array(one, { minLength: n, maxLength: n }).chain(series =>
      fc.boolean().map(ratio => {
        const body: Obj = { series }
        // asRatio only where the server keeps it: a time tile with exactly two series.
        if (type === 'time' && series.length === 2 && ratio) body.asRatio = true
        return { body, displayType: type === 'time' ? (displayType ?? 'line') : type }
      })
    )
  })

/** A tile body in the server's `config` form. */
const configBody: fc.Arbitrary<TileBody> = fc
  .constantFrom('line', 'stacked_bar', 'table', 'number', 'pie', 'bar', 'search', 'markdown')
  .chain((displayType): fc.Arbitrary<TileBody> => {
    if (displayType === 'markdown') {
      return text(200, 0).map(markdown => ({ body: { config: { displayType, markdown } }, displayType }))
    }
    if (displayType === 'search') {
      return fc
        .tuple(
          sourceName,
          fc.oneof(
            fc.uniqueArray(word, { minLength: 1, maxLength: 3 }),
            fc.constantFrom('', 'level, service')
          ),
          filterFields
        )
        .map(([source, select, filter]) => ({
          body: { config: { displayType, source, select, ...filter } },
          displayType
        }))
    }
    const max = ['number', 'pie', 'bar'].includes(displayType) ? 1 : 3
    const item = fc
      .tuple(aggregation('valueExpression', 'fixed'), filterFields)
      .map(([a, f]) => ({ ...a, ...f }))
    return fc
      .record({
        source: sourceName,
        select: fc.array(item, { minLength: 1, maxLength: max }),
        groupBy: fc.option(fc.oneof(word, fc.uniqueArray(word, { minLength: 1, maxLength: 2 })), {
          nil: undefined
        }),
        ratio: fc.boolean()
      })
      .map(({ source, select, groupBy, ratio }) => {
        const config: Obj = { displayType, source, select }
        if (groupBy !== undefined && displayType !== 'number') config.groupBy = groupBy
        if (['line', 'stacked_bar', 'table'].includes(displayType) && select.length === 2 && ratio)
          config.asRatio = true
        return { body: { config }, displayType }
      })
  })

interface GeneratedDashboard {
  doc: Obj
  tiles: Array<{ name: string; displayType: string }>
}

/** Tiles placed on the 24-column grid, with unique names. */
const dashboard = (name: string): fc.Arbitrary<GeneratedDashboard> =>
  fc
    .record({
      names: fc.uniqueArray(text(40), { minLength: 0, maxLength: 6 }),
      tags: fc.uniqueArray(tag, { maxLength: 5 }),
      adopt: fc.option(fc.boolean(), { nil: undefined })
    })
    .chain(({ names, tags, adopt }) =>
      fc
        .tuple(
          ...names.map(() =>
            fc.record({
              x: fc.integer({ min: 0, max: 23 }),
              y: fc.integer({ min: 0, max: 100 }),
              w: fc.integer({ min: 1, max: 24 }),
              h: fc.integer({ min: 1, max: 12 }),
              content: fc.oneof(seriesBody, configBody)
            })
          )
        )
        .map(places => {
          const tiles = places.map((p, i) => {
            const w = Math.min(p.w, 24 - p.x)
            return {
              tile: { name: names[i]!, x: p.x, y: p.y, w, h: p.h, ...p.content.body } as Obj,
              displayType: p.content.displayType
            }
          })
          const doc: Obj = { kind: 'Dashboard', name }
          if (tags.length > 0) doc.tags = tags
          if (tiles.length > 0) doc.tiles = tiles.map(t => t.tile)
          if (adopt !== undefined) doc.adopt = adopt
          return { doc, tiles: tiles.map(t => ({ name: t.tile.name as string, displayType: t.displayType })) }
        })
    )

const ALERTABLE = ['line', 'stacked_bar', 'number']

const alertOn = (name: string, dash: GeneratedDashboard): fc.Arbitrary<Obj> | undefined => {
  const tiles = dash.tiles.filter(t => ALERTABLE.includes(t.displayType))
  if (tiles.length === 0) return undefined
  return fc
    .record({
      tile: fc.constantFrom(...tiles.map(t => t.name)),
      threshold: fc.oneof(
        fc.integer({ min: -1000, max: 100000 }),
        fc.double({ min: -1e6, max: 1e6, noNaN: true })
      ),
      spread: fc.double({ min: 0, max: 1e6, noNaN: true }),
      thresholdType: fc.constantFrom(...THRESHOLD_TYPES),
      interval: fc.constantFrom(...ALERT_INTERVALS),
      channel: fc.oneof(
        webhookName.map(webhook => ({ type: 'webhook', webhook })),
        webhookId.map(id => ({ type: 'webhook', webhookId: id }))
      ),
      message: fc.option(text(300), { nil: undefined }),
      note: fc.option(text(100), { nil: undefined }),
      numConsecutiveWindows: fc.option(fc.integer({ min: 1, max: 10 }), { nil: undefined }),
      source: fc.option(fc.constant('tile'), { nil: undefined })
    })
    .map(a => {
      const doc: Obj = {
        kind: 'Alert',
        name,
        dashboard: dash.doc.name as string,
        tile: a.tile,
        threshold: a.threshold,
        thresholdType: a.thresholdType,
        interval: a.interval,
        channel: a.channel
      }
      if (a.thresholdType === 'between' || a.thresholdType === 'not_between')
        doc.thresholdMax = a.threshold + a.spread
      if (a.message !== undefined) doc.message = a.message
      if (a.note !== undefined) doc.note = a.note
      if (a.numConsecutiveWindows !== undefined) doc.numConsecutiveWindows = a.numConsecutiveWindows
      if (a.source !== undefined) doc.source = a.source
      return doc
    })
}

const serviceSettings: fc.Arbitrary<Obj> = fc
  .record(
    {
      name: fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9 ]{0,49}$/),
      releaseChannel: fc.constantFrom(...RELEASE_CHANNELS),
      ipAccessList: fc.uniqueArray(
        fc.oneof(
          fc.ipV4(),
          fc.tuple(fc.ipV4(), fc.integer({ min: 0, max: 32 })).map(([ip, p]) => `${ip}/${p}`),
          fc.ipV6()
        ),
        { maxLength: 4 }
      ),
      privateEndpointIds: fc.uniqueArray(fc.stringMatching(/^vpce-[0-9a-f]{8}$/), { maxLength: 3 }),
      endpoints: fc.boolean().map(enabled => [{ protocol: 'mysql', enabled }])
    },
    { requiredKeys: [] }
  )
  .map(s => {
    const doc: Obj = { kind: 'ServiceSettings' }
    for (const [k, v] of Object.entries(s)) {
      doc[k] =
        k === 'ipAccessList'
          ? (v as string[]).map(source => ({ source, description: 'office' }))
          : (v as Json)
    }
    return doc
  })

/** Valid documents: dashboards with unique names, alerts on their alertable tiles, maybe one ServiceSettings. */
export const validDocuments: fc.Arbitrary<{ docs: Obj[]; mode: Mode }> = fc
  .record({
    names: fc.uniqueArray(text(60), { minLength: 1, maxLength: 3 }),
    alertNames: fc.uniqueArray(text(60), { maxLength: 3 }),
    managed: fc.boolean(),
    apiVersion: fc.boolean()
  })
  .chain(({ names, alertNames, managed, apiVersion }) =>
    fc.tuple(...names.map(n => dashboard(n))).chain(dashboards => {
      const alerts = alertNames.flatMap((name, i) => {
        const arb = alertOn(name, dashboards[i % dashboards.length]!)
        return arb ? [arb] : []
      })
      return fc
        .tuple(fc.tuple(...alerts), managed ? serviceSettings.map(s => [s]) : fc.constant([] as Obj[]))
        .chain(([alertDocs, services]) => {
          const docs = [...dashboards.map(d => d.doc), ...alertDocs, ...services]
          if (apiVersion) for (const d of docs) d.apiVersion = 'obsdeploy/v1'
          // Alerts may come before their dashboard, in any order.
          return fc.shuffledSubarray(docs, { minLength: docs.length, maxLength: docs.length })
        })
        .map(docs => ({
          docs: managed ? docs.map(managedOnly) : docs,
          mode: (managed ? 'managed' : 'self-hosted') as Mode
        }))
    })
  )

/** The managed API has no `increase` aggregation: a valid managed document uses `sum` there instead. */
function managedOnly(value: Obj): Obj {
  const walk = (v: Json): Json => {
    if (Array.isArray(v)) return v.map(walk)
    if (v === null || typeof v !== 'object') return v
    const out: Obj = {}
    for (const [k, child] of Object.entries(v))
      out[k] = k === 'aggFn' && child === 'increase' ? 'sum' : walk(child)
    return out
  }
  return walk(value) as Obj
}

/** How the yaml library writes a document: block or flow collections, plain or quoted strings, indentation. */
export interface Style {
  collectionStyle: 'any' | 'block' | 'flow'
  defaultStringType: 'PLAIN' | 'QUOTE_DOUBLE' | 'QUOTE_SINGLE'
  indent: number
  comments: boolean
}

export const style: fc.Arbitrary<Style> = fc.record({
  collectionStyle: fc.constantFrom('any', 'any', 'block', 'flow'),
  defaultStringType: fc.constantFrom('PLAIN', 'PLAIN', 'QUOTE_DOUBLE', 'QUOTE_SINGLE'),
  indent: fc.constantFrom(2, 2, 4),
  comments: fc.boolean()
})

export const serialize = (docs: readonly Json[], s?: Style): string =>
  docs
    .map((d, i) => {
      const body = stringify(
        d,
        s
          ? { collectionStyle: s.collectionStyle, defaultStringType: s.defaultStringType, indent: s.indent }
          : {}
      )
      return s?.comments ? `# document ${i + 1}\n\n${body}# end\n` : body
    })
    .join('---\n')

export const validCase: fc.Arbitrary<FuzzCase> = fc
  .tuple(validDocuments, style)
  .map(([{ docs, mode }, s]) => ({
    family: 'valid',
    text: serialize(docs, s),
    mode,
    valid: true
  }))

// ---------------------------------------------------------------------------------------------------------
// Wrong types: one field's value replaced with a value of another type.

const typeOf = (v: Json): string => (v === null ? 'null' : Array.isArray(v) ? 'list' : typeof v)

const otherTypes: Record<string, fc.Arbitrary<Json>> = {
  string: fc.oneof(fc.constantFrom('5', 'true', 'yes'), word),
  number: fc.oneof(fc.integer(), fc.constantFrom(0, -1, 1.5)),
  boolean: fc.boolean(),
  null: fc.constant(null),
  list: fc.array(fc.oneof(fc.integer(), word), { maxLength: 2 }),
  object: fc.dictionary(word, fc.oneof(fc.integer(), word), { maxKeys: 2 })
}

/** Every path below the document root, with its value. */
function paths(
  value: Json,
  prefix: Array<string | number> = []
): Array<{ path: Array<string | number>; value: Json }> {
  const out: Array<{ path: Array<string | number>; value: Json }> = []
  if (Array.isArray(value))
    value.forEach((v, i) => out.push({ path: [...prefix, i], value: v }, ...paths(v, [...prefix, i])))
  else if (value !== null && typeof value === 'object') {
    for (const [k, v] of Object.entries(value))
      out.push({ path: [...prefix, k], value: v }, ...paths(v, [...prefix, k]))
  }
  return out
}

/**
 * Fields whose schema is a union of types (a string or a list): another type may be valid there, so they
 * are not mutated themselves, and a wrong item inside one is reported at the union.
 */
const UNION_FIELD = /^tiles\[\d+\]\.config\.(groupBy|select)/

function setAt(root: Json, path: ReadonlyArray<string | number>, value: Json): Json {
  if (path.length === 0) return value
  const [head, ...rest] = path
  if (Array.isArray(root)) return root.map((v, i) => (i === head ? setAt(v, rest, value) : v))
  const obj = root as Obj
  return { ...obj, [head!]: setAt(obj[head!]!, rest, value) }
}

export const wrongTypeCase: fc.Arbitrary<FuzzCase> = fc
  .tuple(validDocuments, style)
  .chain(([{ docs, mode }, s]) =>
    fc.nat({ max: docs.length - 1 }).chain(document => {
      const candidates = paths(docs[document]!).filter(
        p => UNION_FIELD.exec(formatPath(p.path))?.[0] !== formatPath(p.path)
      )
      return fc.constantFrom(...candidates).chain(({ path, value }) => {
        const kinds = Object.keys(otherTypes).filter(t => t !== typeOf(value))
        return fc
          .constantFrom(...kinds)
          .chain(t => otherTypes[t]!)
          .map(replacement => {
            const mutated = docs.map((d, i) => (i === document ? setAt(d, path, replacement) : d))
            return { family: 'wrong type', text: serialize(mutated, s), mode, mutated: { document, path } }
          })
      })
    })
  )

// ---------------------------------------------------------------------------------------------------------
// Junk, hostile YAML and huge scalars.

const TOKENS = [
  ':',
  ': ',
  '- ',
  '[',
  ']',
  '{',
  '}',
  ',',
  '&a ',
  '*a',
  '&b ',
  '*b',
  '!!str ',
  '!!map',
  '!local ',
  '---\n',
  '...\n',
  '\n',
  '  ',
  '\t',
  '#',
  '"',
  "'",
  '|',
  '>',
  '?',
  '%YAML 1.2\n',
  '<<: ',
  'kind: ',
  'Dashboard',
  'Alert',
  'ServiceSettings',
  'name: ',
  'tiles:',
  'series:',
  'where: ',
  'level:(error',
  '${A}',
  '$${A}',
  '\\',
  '\u0000',
  '\ufeff',
  '0x1F',
  '.inf',
  '~',
  'null',
  'yes',
  '1e999',
  '9007199254740993'
]

export const junkCase: fc.Arbitrary<FuzzCase> = fc.oneof(
  fc.uint8Array({ maxLength: 512 }).map(bytes => ({
    family: 'random bytes',
    text: new TextDecoder('utf-8').decode(bytes),
    mode: 'self-hosted' as Mode
  })),
  fc
    .string({ unit: 'binary', maxLength: 300 })
    .map(text => ({ family: 'random string', text, mode: 'self-hosted' as Mode })),
  fc.array(fc.constantFrom(...TOKENS), { maxLength: 80 }).map(tokens => ({
    family: 'token soup',
    text: tokens.join(''),
    mode: 'managed' as Mode
  }))
)

const nestings: Record<string, (depth: number) => string> = {
  'flow sequences': d => `${'['.repeat(d)}${']'.repeat(d)}`,
  'unclosed flow sequences': d => '['.repeat(d),
  'flow mappings': d => `${'{a: '.repeat(d)}1${'}'.repeat(d)}`,
  'compact sequences': d => `${'- '.repeat(d)}x`,
  'block mappings': d =>
    Array.from({ length: d }, (_, i) => `${'  '.repeat(i)}k${i}:`).join('\n') + ' leaf\n',
  'block sequences': d => Array.from({ length: d }, (_, i) => `${'  '.repeat(i)}-`).join('\n') + ' leaf\n'
}

export const deepCase: fc.Arbitrary<FuzzCase> = fc
  .record({
    form: fc.constantFrom(...Object.keys(nestings)),
    depth: fc.integer({ min: 1, max: MAX_FUZZ_DEPTH }),
    inside: fc.constantFrom('alone', 'tags', 'tile')
  })
  .map(({ form, depth, inside }) => {
    const nested = nestings[form]!(depth)
    const text =
      inside === 'alone'
        ? nested
        : inside === 'tags'
          ? `kind: Dashboard\nname: D\ntags:\n${nested.replace(/^/gm, '  ')}\n`
          : `kind: Dashboard\nname: D\ntiles:\n  - name: T\n    x: 0\n    y: 0\n    w: 1\n    h: 1\n    config:\n${nested.replace(/^/gm, '      ')}\n`
    const parses = form !== 'unclosed flow sequences'
    const depthOf = depth + (inside === 'tags' ? 1 : inside === 'tile' ? 3 : 0)
    return {
      family: `deep ${form}`,
      text,
      mode: 'self-hosted' as Mode,
      ...(parses ? { depth: depthOf } : {})
    }
  })

/** Anchors and aliases: fan-out `width` per level, `levels` deep; the wide and deep ones are alias bombs. */
export const aliasCase: fc.Arbitrary<FuzzCase> = fc
  .record({
    levels: fc.integer({ min: 1, max: 9 }),
    width: fc.integer({ min: 1, max: 9 }),
    use: fc.constantFrom('tags', 'tiles', 'renamedFrom', 'unknown field'),
    dangling: fc.integer({ min: 0, max: 7 }).map(n => n === 0)
  })
  .map(({ levels, width, use, dangling }) => {
    const rows = ['kind: Dashboard', 'name: Aliases', 'x-anchors:', '  l0: &l0 "lol"']
    for (let i = 1; i <= levels; i++)
      rows.push(
        `  l${i}: &l${i} [${Array(width)
          .fill(`*l${i - 1}`)
          .join(', ')}]`
      )
    const top = dangling ? '*nowhere' : `*l${levels}`
    rows.push(use === 'unknown field' ? `extra: ${top}` : `${use}: ${top}`)
    return {
      // Exponential expansion is a bomb; the library's alias budget may refuse smaller reuse too.
      family: dangling ? 'dangling alias' : width >= 2 && width ** levels >= 1000 ? 'alias bomb' : 'aliases',
      text: `${rows.join('\n')}\n`,
      mode: 'self-hosted' as Mode
    }
  })

/** Scalars from 1 KB to ~500 KB in the places validation looks hardest at. */
export const hugeCase = (maxLength = 500_000): fc.Arbitrary<FuzzCase> =>
  fc
    .record({
      length: fc.integer({ min: 1000, max: maxLength }),
      field: fc.constantFrom('name', 'where', 'content', 'key', 'tag'),
      style: fc.constantFrom('plain', 'quoted', 'block'),
      fill: fc.constantFrom('x', 'ab ', 'é', '(')
    })
    .map(({ length, field, style, fill }) => {
      const big = fill.repeat(Math.ceil(length / fill.length)).slice(0, length)
      const scalar =
        style === 'plain' && fill !== '(' ? big : style === 'block' ? `|\n  ${big}` : JSON.stringify(big)
      const tile = (line: string) =>
        `kind: Dashboard\nname: D\ntiles:\n  - name: T\n    x: 0\n    y: 0\n    w: 1\n    h: 1\n    series:\n      - type: time\n        source: Logs\n        aggFn: count\n        ${line}\n`
      const text =
        field === 'name'
          ? `kind: Dashboard\nname: ${scalar}\n`
          : field === 'where'
            ? tile(`where: ${scalar.replace(/\n {2}/, '\n          ')}`)
            : field === 'content'
              ? `kind: Dashboard\nname: D\ntiles:\n  - name: T\n    x: 0\n    y: 0\n    w: 1\n    h: 1\n    series:\n      - type: markdown\n        content: ${scalar.replace(/\n {2}/, '\n          ')}\n`
              : field === 'key'
                ? `kind: Dashboard\nname: D\n${JSON.stringify(big)}: 1\n`
                : `kind: Dashboard\nname: D\ntags: [${JSON.stringify(big)}]\n`
      return { family: `huge ${field}`, text, mode: 'self-hosted' as Mode }
    })

/** Everything, weighted so a few hundred runs see each family. */
export const fuzzCase = (options: { hugeMaxLength?: number } = {}): fc.Arbitrary<FuzzCase> =>
  fc.oneof(
    { arbitrary: validCase, weight: 6 },
    { arbitrary: wrongTypeCase, weight: 6 },
    { arbitrary: junkCase, weight: 4 },
    { arbitrary: deepCase, weight: 2 },
    { arbitrary: aliasCase, weight: 2 },
    { arbitrary: hugeCase(options.hugeMaxLength), weight: 1 }
  )

// ---------------------------------------------------------------------------------------------------------
// The properties.

export interface CaseResult {
  ms: number
  diagnostics: Diagnostic[]
}

/** Validates one case and checks every property; throws an Error that says which one broke. */
export function checkCase(c: FuzzCase, callLimitMs: number): CaseResult {
  const started = performance.now()
  let diagnostics: Diagnostic[]
  try {
    diagnostics = validateText(FILE, c.text, c.mode).diagnostics
  } catch (e) {
    throw new Error(
      `validateText threw on a ${c.family} case: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`,
      { cause: e }
    )
  }
  const ms = performance.now() - started
  if (ms > callLimitMs)
    throw new Error(`validateText took ${ms.toFixed(0)} ms on a ${c.family} case (limit ${callLimitMs} ms)`)
  for (const d of diagnostics) {
    const broken =
      d.file !== FILE ||
      !Number.isInteger(d.line) ||
      (d.line ?? 0) < 1 ||
      (d.column !== undefined && (!Number.isInteger(d.column) || d.column < 1)) ||
      d.message.trim() === '' ||
      !['error', 'warning', 'notice'].includes(d.severity)
    if (broken) throw new Error(`a diagnostic without a proper place or message: ${JSON.stringify(d)}`)
  }
  if (c.valid && diagnostics.length > 0) {
    throw new Error(`a valid manifest got diagnostics: ${JSON.stringify(diagnostics.map(describe))}`)
  }
  if (c.mutated) {
    const path = formatPath(c.mutated.path)
    const union = UNION_FIELD.exec(path)?.[0]
    const field = union ?? path
    const at = union ? c.mutated.path.slice(0, 4) : c.mutated.path
    const hits = diagnostics.filter(
      d =>
        d.severity === 'error' &&
        d.field !== undefined &&
        (d.field === field || d.field.startsWith(`${field}.`) || d.field.startsWith(`${field}[`))
    )
    if (hits.length === 0) {
      throw new Error(
        `no error at ${field} after giving it a value of another type: ${JSON.stringify(diagnostics.map(describe))}`
      )
    }
    // An error about the field itself points at the line of its value, as the yaml library places it.
    const line = lineOf(c.text, c.mutated.document, at)
    const exact = hits.filter(d => d.field === field)
    if (exact.length > 0 && line !== undefined && !exact.some(d => d.line === line)) {
      throw new Error(`the error at ${field} is not at line ${line}: ${JSON.stringify(exact.map(describe))}`)
    }
  }
  return { ms, diagnostics }
}

const describe = (d: Diagnostic) => `${d.line}:${d.column} ${d.field ?? '-'}: ${d.message}`

/** The 1-based line where the node at `path` of document `index` starts, found independently of src/. */
function lineOf(text: string, index: number, path: ReadonlyArray<string | number>): number | undefined {
  const lineCounter = new LineCounter()
  const doc = parseAllDocuments(text, { lineCounter })[index]
  if (!doc || Array.isArray(doc)) return undefined
  const node = doc.getIn(path, true) as { range?: [number, number, number] } | undefined
  return node?.range ? lineCounter.linePos(node.range[0]).line : undefined
}

export interface FuzzStats {
  runs: number
  diagnostics: number
  errors: number
  byFamily: Record<string, number>
  slowest: { ms: number; family: string; bytes: number; preview: string }
}

export function emptyStats(): FuzzStats {
  return {
    runs: 0,
    diagnostics: 0,
    errors: 0,
    byFamily: {},
    slowest: { ms: 0, family: '', bytes: 0, preview: '' }
  }
}

/** The fast-check property, counting into `stats`. */
export function fuzzProperty(stats: FuzzStats, options: { callLimitMs: number; hugeMaxLength?: number }) {
  return fc.property(fuzzCase(options), c => {
    const { ms, diagnostics } = checkCase(c, options.callLimitMs)
    stats.runs++
    stats.diagnostics += diagnostics.length
    stats.errors += diagnostics.filter(d => d.severity === 'error').length
    stats.byFamily[c.family] = (stats.byFamily[c.family] ?? 0) + 1
    if (ms > stats.slowest.ms) {
      stats.slowest = {
        ms,
        family: c.family,
        bytes: Buffer.byteLength(c.text),
        preview: JSON.stringify(c.text.slice(0, 80))
      }
    }
  })
}

// ---------------------------------------------------------------------------------------------------------
// `npm run fuzz`

function argument(argv: readonly string[], name: string, fallback: number): number {
  const i = argv.indexOf(`--${name}`)
  const raw = i >= 0 ? argv[i + 1] : argv.find(a => a.startsWith(`--${name}=`))?.slice(name.length + 3)
  if (raw === undefined) return fallback
  const n = Number(raw)
  if (!Number.isFinite(n) || n < 0) throw new Error(`--${name} must be a non-negative number, got ${raw}`)
  return n
}

export async function main(argv: readonly string[]): Promise<number> {
  if (argv.includes('--parity')) return parityMain(argv)
  const runs = Math.floor(argument(argv, 'runs', 20_000))
  const seed = Math.floor(argument(argv, 'seed', Date.now() % 2 ** 31))
  const timeLimitS = argument(argv, 'time-limit', 600)
  const callLimitMs = argument(argv, 'call-limit', 10_000)
  const stats = emptyStats()
  console.log(`fuzzing validateText: ${runs} runs, seed ${seed}, stops after ${timeLimitS} s`)
  const started = performance.now()
  const result = fc.check(fuzzProperty(stats, { callLimitMs }), {
    numRuns: runs,
    seed,
    interruptAfterTimeLimit: timeLimitS * 1000,
    markInterruptAsFailure: false
  })
  const seconds = ((performance.now() - started) / 1000).toFixed(1)
  console.log(
    `runs: ${result.numRuns} in ${seconds} s${result.interrupted ? ' (stopped by the time limit)' : ''}`
  )
  console.log(`validateText calls (with shrinking): ${stats.runs}`)
  console.log(`diagnostics seen: ${stats.diagnostics} (${stats.errors} errors)`)
  console.log('cases by family:')
  for (const [family, n] of Object.entries(stats.byFamily).sort((a, b) => b[1] - a[1])) {
    console.log(`  ${String(n).padStart(6)}  ${family}`)
  }
  const s = stats.slowest
  console.log(`slowest case: ${s.ms.toFixed(1)} ms, ${s.family}, ${s.bytes} bytes, starts ${s.preview}`)
  if (result.failed) {
    console.error(`\nFAILED (seed ${seed}, path ${result.counterexamplePath ?? '?'}):`)
    console.error(fc.defaultReportMessage(result) ?? '')
    console.error(`rerun: npm run fuzz -- --seed ${seed} --runs ${runs}`)
    return 1
  }
  return 0
}

/**
 * `npm run fuzz -- --parity [--runs 2000] [--seed 42] [--time-limit 600]`: the property of scripts/server-parity.ts
 * (what validates offline, the emulator accepts under the real server's rules), in both modes.
 */
async function parityMain(argv: readonly string[]): Promise<number> {
  const runs = Math.floor(argument(argv, 'runs', 2_000))
  const seed = Math.floor(argument(argv, 'seed', Date.now() % 2 ** 31))
  const timeLimitS = argument(argv, 'time-limit', 600)
  let failed = false
  for (const mode of ['self-hosted', 'managed'] as const) {
    const seen = [0, 0, 0]
    const started = performance.now()
    const result = await fc.check(
      fc.asyncProperty(parityCase(mode), async c => {
        seen[(await checkParity(c)).appliedSets]!++
      }),
      { numRuns: runs, seed, interruptAfterTimeLimit: (timeLimitS * 1000) / 2, markInterruptAsFailure: false }
    )
    const seconds = ((performance.now() - started) / 1000).toFixed(1)
    console.log(
      `${mode}: ${result.numRuns} runs in ${seconds} s; manifest pairs refused offline ${seen[0]}, first set applied ${seen[1]}, both applied ${seen[2]}`
    )
    if (result.failed) {
      failed = true
      console.error(
        `FAILED (${mode}, seed ${seed}, path ${result.counterexamplePath ?? '?'}): ${String(result.errorInstance)}`
      )
      console.error(`rerun: npm run fuzz -- --parity --seed ${seed} --runs ${runs}`)
    }
  }
  return failed ? 1 : 0
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  process.exitCode = await main(process.argv.slice(2))
}
