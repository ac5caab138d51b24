/**
 * The cost of a rule's evaluation, counted as Kubernetes' CEL runtime counts it: a step for each part of
 * the expression evaluated, so each comprehension iteration costs the size of its body; a step for each
 * character, element or entry of a string, list or map the evaluation builds; and a tenth of a step for
 * each one a function or an operator reads. Without a comprehension, an expression's parts are evaluated
 * at most once each, so only what can repeat or grow is metered as it runs: each iteration (charged the
 * body's size up front, an upper bound), each call, what is built. That keeps the meter off the hot path of
 * the parts between (a field, a comparison), which are most of the work.
 *
 * Evaluation is synchronous, so the count, not a clock, is what stops it: past the budget every metered
 * part throws at once, so loops run out in a step each; an error that `||`, `&&` or a quantifier swallowed
 * is seen after (cel.ts checks the count once the evaluation returns).
 */
import { nodesOf, type CelNode, type Evaluate } from './cel-ast.js'

/**
 * Steps one rule may take on one resource. The costliest sensible rules over the largest manifests the
 * product accepts (500 tiles, 49 tags, 10 channels) take a fraction of it: every tile name unique (each
 * tile against every other: 250,000 iterations) costs about 2 million; a tile-by-tile check with a
 * regular expression, under 10,000. A rule that runs out of budget stops in under a second
 * (bench/RESULTS.md, section 8).
 */
export const COST_BUDGET = 20_000_000

export interface Meter {
  cost: number
  budget: number
}

/** Thrown past the budget; one instance, as it is thrown from every metered part of an evaluation that stops. */
export class OverBudget extends Error {
  constructor() {
    super('over the cost budget')
  }
}
const overBudget = new OverBudget()

export function charge(meter: Meter, steps: number): void {
  if ((meter.cost += steps) > meter.budget) throw overBudget
}

type Handle = (this: unknown, ...args: unknown[]) => unknown

/**
 * Meters the nodes of a compiled tree (nodesOf) into `m`. An evaluation starts at the tree's size (each
 * part at most once: `m.cost = nodes.length`), and every iteration, call and built value adds to it.
 */
export function meter(nodes: readonly CelNode[], m: Meter): void {
  for (const node of nodes) {
    if (node.meta.alternate || node.meta.macro) continue
    const handle = node.handle as Handle | undefined
    switch (node.op) {
      case 'comprehension': {
        const { step } = node.args as { step: CelNode }
        step.evaluate = iteration(step, nodesOf(step).length, m)
        // map() and filter() build a list.
        if (handle) node.handle = builds(handle, m)
        break
      }
      case 'call':
      case 'rcall':
        // (args, ast, ev) for a function, (args, ev, ast) for a method: the arguments come first in both.
        if (handle)
          node.handle = function (this: unknown, args: unknown, a: unknown, b: unknown) {
            let read = 0
            for (let i = 0; i < (args as unknown[]).length; i++) read += sizeOf((args as unknown[])[i])
            charge(m, 1 + Math.ceil(read / 10))
            const value = handle.call(this, args, a, b)
            charge(m, sizeOf(value))
            return value
          }
        break
      case '+':
        if (handle) node.handle = builds(handle, m)
        break
      case 'in':
      case '==':
      case '!=':
        // Membership scans a list; equality compares two element by element.
        if (handle)
          node.handle = function (this: unknown, left: unknown, right: unknown, a: unknown, b: unknown) {
            charge(m, Math.ceil((collectionSize(left) + collectionSize(right)) / 10))
            return handle.call(this, left, right, a, b)
          }
        break
      case 'list':
      case 'map': {
        const meta = node.meta
        node.evaluate = function (this: unknown, ev, ast, ctx) {
          const value = meta.evaluate.call(this, ev, ast, ctx)
          charge(m, sizeOf(value))
          return value
        }
      }
    }
  }
}

/** A handle whose result is a new value: its size is charged. (Handles take at most four arguments.) */
function builds(handle: Handle, m: Meter): Handle {
  return function (this: unknown, a: unknown, b: unknown, c: unknown, d: unknown) {
    const value = handle.call(this, a, b, c, d)
    charge(m, sizeOf(value))
    return value
  }
}

/**
 * A comprehension's body, charged its size before each iteration. Its evaluation as cel-js dispatches it
 * (ASTNode.evaluate): a macro's expansion, a macro, or its operator's evaluate (read at each call, as a
 * type check may set it).
 */
function iteration(step: CelNode, size: number, m: Meter): Evaluate {
  const meta = step.meta
  return function (this: unknown, ev, ast, ctx) {
    if ((m.cost += size) > m.budget) throw overBudget
    if (meta.alternate) return meta.alternate.evaluate(ev, meta.alternate, ctx)
    if (meta.macro) return meta.macro.evaluate(ev, meta.macro, ctx)
    return meta.evaluate.call(this, ev, ast, ctx)
  }
}

/** Characters of a string, elements of a list, entries of a map or bytes; 0 for anything else. */
export function sizeOf(v: unknown): number {
  if (typeof v === 'string') return v.length
  if (v === null || typeof v !== 'object') return 0
  if (v instanceof Uint8Array) return v.length
  return collectionSize(v)
}

function collectionSize(v: unknown): number {
  if (v === null || typeof v !== 'object') return 0
  if (Array.isArray(v)) return v.length
  if (v instanceof Map || v instanceof Set) return v.size
  if (v.constructor !== Object && v.constructor !== undefined) return 0
  let n = 0
  for (const _ in v) n++
  return n
}
