/**
 * Fitting a report into a size limit without breaking its markup. A report is a sequence of segments:
 * fixed text that always stays (heading, counts) and runs of whole items (one section per resource, error
 * groups) that are shortened from their end, the least important run first: an item may first give way to
 * a short form of itself (its one line, without the diff), then go. Nothing is ever cut inside an item, so
 * a table or a <details> section is either whole or absent.
 */

/**
 * How a limit is counted. `chars` counts UTF-16 code units (String#length), never fewer than the code
 * points GitHub counts for a comment, so a report that fits here fits there. `bytes` counts UTF-8 bytes,
 * the unit of the job summary limit.
 */
export type Measure = 'chars' | 'bytes'

export function sizeOf(text: string, measure: Measure): number {
  return measure === 'bytes' ? Buffer.byteLength(text, 'utf8') : text.length
}

/** An item with a shorter stand-in (a resource's line without its diff) used before the item is dropped. */
export interface Shortenable {
  full: string
  short: string
}

export type Item = string | Shortenable

/** A run of whole items the report may shorten from the end, saying how many it left out. */
export interface Cuttable {
  /** Text before the items, e.g. a section heading or a table header. */
  head: string
  items: readonly Item[]
  /** Text after the items and the omission note, e.g. the blank line that ends a table. Always kept. */
  tail: string
  /** What stands in for the `n` items left out: a whole paragraph with its own line breaks. */
  omitted: (n: number) => string
  /** Runs with a lower order are cut first; a run is emptied before the next one is touched. */
  cutOrder: number
  /**
   * When set, items that have a short form are first replaced by it, from the end, runs in this order
   * (compared with the cutOrder of other runs: one ordering for both steps).
   */
  shortenOrder?: number
  /** Keep the head when no item is left (a heading that the omission note still belongs to). */
  keepHeadWhenEmpty: boolean
}

export type Segment = string | Cuttable

interface RunState {
  run: Cuttable
  /** prefixFull[k] and prefixShort[k]: the size of the first k items in full and in short form. */
  prefixFull: number[]
  prefixShort: number[]
  headSize: number
  tailSize: number
  /** Items kept; the first `full` of them in full form, the rest short. */
  kept: number
  full: number
}

const fullOf = (item: Item): string => (typeof item === 'string' ? item : item.full)
const shortOf = (item: Item): string => (typeof item === 'string' ? item : item.short)

/**
 * Joins the segments, shortening and cutting items until the result fits in `maxLength`. Linear in the
 * size of the input: every item is measured once and each run shrinks one item at a time.
 */
export function fitSegments(segments: readonly Segment[], maxLength: number, measure: Measure): string {
  const size = (text: string): number => sizeOf(text, measure)
  const states = new Map<Cuttable, RunState>()
  let total = 0
  for (const segment of segments) {
    if (typeof segment === 'string') {
      total += size(segment)
      continue
    }
    const prefixFull = [0]
    const prefixShort = [0]
    for (const item of segment.items) {
      const full = size(fullOf(item))
      prefixFull.push(prefixFull[prefixFull.length - 1] + full)
      prefixShort.push(
        prefixShort[prefixShort.length - 1] + (typeof item === 'string' ? full : size(item.short))
      )
    }
    const state: RunState = {
      run: segment,
      prefixFull,
      prefixShort,
      headSize: size(segment.head),
      tailSize: size(segment.tail),
      kept: segment.items.length,
      full: segment.items.length
    }
    states.set(segment, state)
    total += runSize(state, size)
  }

  // One ordering for both steps: shortening a run may come before dropping items of another.
  const steps: Array<{ order: number; state: RunState; shorten: boolean }> = []
  for (const state of states.values()) {
    steps.push({ order: state.run.cutOrder, state, shorten: false })
    if (state.run.shortenOrder !== undefined)
      steps.push({ order: state.run.shortenOrder, state, shorten: true })
  }
  steps.sort((a, b) => a.order - b.order || Number(b.shorten) - Number(a.shorten))
  for (const { state, shorten } of steps) {
    if (total <= maxLength) break
    let current = runSize(state, size)
    while (total > maxLength && (shorten ? state.full > 0 : state.kept > 0)) {
      if (shorten) state.full--
      else state.full = Math.min(state.full, --state.kept)
      const next = runSize(state, size)
      total += next - current
      current = next
    }
  }

  const text = segments.map(s => (typeof s === 'string' ? s : renderRun(states.get(s)!))).join('')
  // Only when the fixed text alone is over the limit (a limit far below any real one): cut whole lines.
  return total > maxLength ? cutToSize(text, maxLength, measure) : text
}

function runSize(state: RunState, size: (text: string) => number): number {
  const { run, kept, full, prefixFull, prefixShort } = state
  const left = run.items.length - kept
  const head = kept > 0 || run.keepHeadWhenEmpty ? state.headSize : 0
  const items = prefixFull[full] + prefixShort[kept] - prefixShort[full]
  return head + items + (left > 0 ? size(run.omitted(left)) : 0) + state.tailSize
}

function renderRun(state: RunState): string {
  const { run, kept, full } = state
  const left = run.items.length - kept
  const note = left > 0 ? run.omitted(left) : ''
  const head = kept > 0 || run.keepHeadWhenEmpty ? run.head : ''
  const items = run.items.slice(0, kept).map((item, i) => (i < full ? fullOf(item) : shortOf(item)))
  return `${head}${items.join('')}${note}${run.tail}`
}

/** The longest run of whole lines that fits; a single line longer than the limit is cut by characters. */
export function cutToSize(text: string, maxLength: number, measure: Measure): string {
  if (sizeOf(text, measure) <= maxLength) return text
  let used = 0
  let end = 0
  for (const line of text.split('\n')) {
    const lineSize = sizeOf(`${line}\n`, measure)
    if (used + lineSize > maxLength) break
    used += lineSize
    end += line.length + 1
  }
  if (end > 0) return text.slice(0, end)
  return sliceBySize(text, maxLength, measure)
}

function sliceBySize(text: string, maxLength: number, measure: Measure): string {
  let used = 0
  let end = 0
  for (const ch of text) {
    const chSize = sizeOf(ch, measure)
    if (used + chSize > maxLength) break
    used += chSize
    end += ch.length
  }
  return text.slice(0, end)
}
