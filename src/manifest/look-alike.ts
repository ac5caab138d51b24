/**
 * Names a reader cannot tell apart. `Payments`, `Pay\u200bments`, `Ρayments` (a Greek Rho) and `Payments `
 * are four dashboards that read as one in a plan, a comment or the web UI, so a change to one passes for a
 * change to another. Validation warns at each name that looks like an earlier one of its kind, and at a
 * name that holds characters no one sees (reports show those escaped, log.ts printable).
 */
import { diagnostic, type Diagnostic } from '../diagnostics.js'
import { visible } from '../log.js'
import type { ParsedDocument } from './yaml.js'

/** Letters of other scripts that look like Latin ones (a part of Unicode's confusables), by the Latin one. */
const LATIN_LOOKS: Record<string, string> = {
  A: 'АΑ',
  B: 'ВΒ',
  C: 'СϹ',
  E: 'ЕΕ',
  H: 'НΗ',
  I: 'ІΙӀ',
  J: 'Ј',
  K: 'КΚ',
  M: 'МΜ',
  N: 'Ν',
  O: 'ОΟ',
  P: 'РΡ',
  S: 'Ѕ',
  T: 'ТΤ',
  X: 'ХΧ',
  Y: 'ҮΥ',
  Z: 'Ζ',
  a: 'а',
  c: 'сϲ',
  d: 'ԁ',
  e: 'е',
  h: 'һ',
  i: 'іı',
  j: 'јϳ',
  l: 'ӏ',
  o: 'оοօ',
  p: 'рρ',
  q: 'ԛ',
  s: 'ѕ',
  u: 'ս',
  v: 'ν',
  w: 'ԝ',
  x: 'хχ',
  y: 'уү'
}
const AS_LATIN = new Map(
  Object.entries(LATIN_LOOKS).flatMap(([latin, looks]) => [...looks].map(c => [c, latin] as const))
)

/** Whether a character shows as nothing (what `visible` escapes), or as a space at most (a line break, a tab). */
const hidden = (c: string): boolean => visible(c) !== c || c === '\n' || c === '\t'

/**
 * What a name looks like: compatibility forms folded (NFKC), hidden characters gone, look-alike letters as
 * Latin ones, white space as one space.
 */
export function lookAlikeKey(name: string): string {
  // Printable ASCII, one space between words: nothing to normalise, map or drop (most names).
  if (PLAIN.test(name)) return name
  return [...name.normalize('NFKC')]
    .map(c => (/[\t\n\r]/.test(c) ? ' ' : hidden(c) ? '' : (AS_LATIN.get(c) ?? c)))
    .join('')
    .replace(/\s+/g, ' ')
    .trim()
}

/** A name of printable ASCII with single spaces inside: its own look-alike key, with nothing unseen. */
const PLAIN = /^[\x21-\x7e]+(?: [\x21-\x7e]+)*$/

const codePoint = (c: string): string => `U+${c.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`

/** The characters of a name that do not show: those `visible` escapes in it (a joiner inside an emoji shows). */
function unseen(name: string): string[] {
  const shown = visible(name)
  return [
    ...new Set([...name].filter(c => c === '\n' || c === '\t' || (hidden(c) && shown.includes(visible(c)))))
  ]
}

/** What in a name makes it look like another: `U+03A1 (looks like P)`, `U+200B (not shown)`. */
function oddities(name: string): string[] {
  const said = new Set<string>()
  if (name !== name.trim()) said.add('white space at the start or end')
  if (/\s{2}/.test(name.trim())) said.add('repeated white space')
  for (const c of unseen(name)) said.add(`${codePoint(c)} (not shown)`)
  for (const c of name) {
    if (AS_LATIN.has(c)) said.add(`${codePoint(c)} (looks like ${AS_LATIN.get(c)})`)
    else if (/\s/.test(c) && c !== ' ' && !hidden(c)) said.add(`${codePoint(c)} (a space)`)
    else if (c.normalize('NFKC') !== c && !hidden(c))
      said.add(`${codePoint(c)} (looks like ${c.normalize('NFKC')})`)
  }
  return [...said]
}

export interface NamedDocument {
  doc: ParsedDocument
  name?: string
}

/**
 * For each kind's names in manifest order: a warning at a name that looks like an earlier, different one,
 * or else at a name that holds control, bidirectional or invisible characters.
 */
export function checkLookAlikeNames(byKind: Record<string, readonly NamedDocument[]>): Diagnostic[] {
  const out: Diagnostic[] = []
  for (const [kind, documents] of Object.entries(byKind)) {
    const first = new Map<string, { doc: ParsedDocument; name: string }>()
    for (const { doc, name } of documents) {
      if (name === undefined) continue
      const warn = (message: string) =>
        out.push(diagnostic('validate', 'warning', message, { ...doc.locate(['name']), field: 'name' }))
      const key = lookAlikeKey(name)
      const earlier = first.get(key)
      if (!earlier) first.set(key, { doc, name })
      if (earlier && earlier.name !== name) {
        const odd = [...new Set([...oddities(earlier.name), ...oddities(name)])]
        const why = odd.length > 0 ? odd.join(', ') : 'how their letters are encoded (composed or not)'
        const where = `${earlier.doc.file}:${earlier.doc.locate(['name']).line}`
        warn(
          `${kind} name "${name}" looks the same as "${earlier.name}" (${where}): they differ only by ${why}; a reader cannot tell them apart, so rename one or remove those characters`
        )
      } else if (!PLAIN.test(name) && unseen(name).length > 0) {
        warn(
          `${kind} name "${name}" holds characters that do not show: ${unseen(name).map(codePoint).join(', ')}; reports print them escaped (\\u{...}), the web UI does not`
        )
      }
    }
  }
  return out
}
