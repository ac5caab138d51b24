/**
 * The values of a plain manifest file, fast: js-yaml 4 parses these files 2-3x faster than js-yaml 5's
 * event parser (bench/RESULTS.md section 7), so a file that uses nothing where the two could differ is
 * read with it, and every other file takes the careful path (yaml.ts) exactly as before.
 *
 * Where they could differ, and how each is kept out:
 * - scalars: js-yaml 4's core schema resolves more integers (`0b1`, `-0x1`) and fewer floats (`-.5`);
 *   its schema here resolves each plain scalar with js-yaml 5's own core tags instead;
 * - anchors and aliases (js-yaml 5 refuses aliases here; 4 expands them), tags and directives, and keys
 *   that are collections (4 turns them into strings; 5 refuses them): a file whose text may hold one
 *   of these is not read here;
 * - depth (js-yaml 4 has no limit): a file that could nest deeper than the limit is not read here;
 * - anything js-yaml 4 refuses (syntax, duplicate keys) is left to the careful path, which says why.
 */
import jsYaml4 from 'js-yaml-4'
import { boolCoreTag, floatCoreTag, intCoreTag, NOT_RESOLVED, nullCoreTag } from 'js-yaml'

type CoreTag = typeof intCoreTag

const implicitType = (tag: CoreTag) => {
  const resolve = (data: string) => tag.resolve(data, false, tag.tagName)
  return new jsYaml4.Type(tag.tagName, {
    kind: 'scalar',
    resolve: data => resolve(data) !== NOT_RESOLVED,
    construct: resolve
  })
}

let schema: ReturnType<typeof jsYaml4.FAILSAFE_SCHEMA.extend> | undefined

/**
 * An anchor, a tag or an explicit key where a node starts; a directive; a collection used as a key; a
 * comment right after a quoted scalar or a flow collection (js-yaml 4 takes it, 5 refuses it); a tab
 * (the two read an empty key after one differently).
 */
const CAREFUL = /(?:^|[\s[{,])(?:[&!]|\?(?:\s|$))|^%|[\]}][ \t]*:|['"\]}]#|\t/m

/**
 * The documents' values, or nothing when the file is to take the careful path. `depthBound` is an upper
 * bound of the file's nesting (from the text); `maxDepth` the limit.
 */
export function fastValues(
  file: string,
  text: string,
  depthBound: number,
  maxDepth: number
): unknown[] | undefined {
  if (depthBound > maxDepth || CAREFUL.test(text)) return undefined
  schema ??= jsYaml4.FAILSAFE_SCHEMA.extend({
    implicit: [nullCoreTag, boolCoreTag, intCoreTag, floatCoreTag].map(t => implicitType(t as CoreTag))
  })
  let values: unknown[]
  try {
    values = jsYaml4.loadAll(text, null, { filename: file, schema })
  } catch {
    return undefined
  }
  for (let i = 0; i < values.length; i++) values[i] = ownStrings(values[i])
  return values
}

/**
 * The value with each string that is a slice of the parsed text made a string of its own. js-yaml 4
 * parses a copy of the text (it appends a NUL), js-yaml 5 the text itself (yaml.ts's careful path), and V8
 * makes a longer substring a view into its parent, so one such string kept by a typed spec would keep the
 * whole text alive to the end of the run, after yaml.ts has let it go. Shorter strings V8 copies anyway.
 */
export function ownStrings(value: unknown): unknown {
  if (typeof value === 'string') return value.length < SLICED_MIN_LENGTH ? value : (' ' + value).slice(1)
  if (value === null || typeof value !== 'object') return value
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = ownStrings(value[i])
    return value
  }
  // Only a string is replaced, and never under `__proto__` (js-yaml 4 defines that key as an own property;
  // assigning it would set the prototype instead).
  const mapping = value as Record<string, unknown>
  for (const key of Object.keys(mapping)) {
    const field = mapping[key]
    if (typeof field !== 'string') ownStrings(field)
    else if (field.length >= SLICED_MIN_LENGTH && key !== '__proto__') mapping[key] = ownStrings(field)
  }
  return value
}

/** V8 copies substrings shorter than this (`SlicedString::kMinLength`); longer ones point into their parent. */
const SLICED_MIN_LENGTH = 13
