/**
 * The cost of a rule's evaluation, counted as Kubernetes' CEL runtime counts it: a step for each node
 * evaluated (so each comprehension iteration costs what its body does), a step for each character,
 * element or entry of a string, list or map the evaluation builds, and a tenth of a step for each one a
 * function or an operator reads. Evaluation is synchronous, so the count, not a clock, is what stops it:
 * past the budget every node throws, so the evaluation unwinds at once, and an error that `||`, `&&` or
 * a quantifier swallowed is seen after it (cel.ts checks the count once the evaluation returns).
 */
import type { CelNode, Evaluate } from './cel-ast.js'

/**
 * Steps one rule may take on one resource. The costliest sensible rules over the largest manifests the
 * product accepts (500 tiles, 49 tags, 10 channels) take a fraction of it: every tile name unique (each
 * tile against every other: 250,000 iterations) costs about 2 million; a tile-by-tile check with a
 * regular expression, under 50,000. A step takes about 40 ns, so a rule that runs out of budget stops
 * within about a second (bench/RESULTS.md, section 8).
 */
export const COST_BUDGET = 20_000_000

export interface Meter {
  cost: number
  budget: number
}

/** Thrown past the budget; one instance, as it is thrown from every node of an evaluation that stops. */
export class OverBudget extends Error {
  constructor() {
    super('over the cost budget')
  }
}
const overBudget = new OverBudget()

export function charge(meter: Meter, steps: number): void {
  if ((meter.cost += steps) > meter.budget) throw overBudget
}

/** Operators whose node builds a new value: its size is charged in full. */
const BUILDS = new Set(['call', 'rcall', '+', 'list', 'map', 'comprehension'])
/** Operators that read a whole list or map operand (membership, equality). */
const READS = new Set(['in', '==', '!='])

/**
 * Counts every evaluation of the nodes of a compiled tree (visitNodes) into `m`; reset its cost before
 * each evaluation.
 */
export function meter(nodes: readonly CelNode[], m: Meter): void {
  for (const node of nodes) {
    node.evaluate = counted(node, m)
    const handle = node.handle
    if (typeof handle !== 'function' || node.meta.alternate || node.meta.macro) continue
    if (node.op === 'call' || node.op === 'rcall') {
      // (args, ast, ev) for a function, (args, ev, ast) for a method: the arguments come first in both.
      node.handle = function (this: unknown, args: unknown[], a: unknown, b: unknown) {
        let read = 0
        for (const v of args) read += sizeOf(v)
        charge(m, Math.ceil(read / 10))
        return (handle as (...x: unknown[]) => unknown).call(this, args, a, b)
      } as CelNode['handle']
    } else if (READS.has(node.op)) {
      node.handle = function (this: unknown, left: unknown, right: unknown, a: unknown, b: unknown) {
        charge(m, Math.ceil((collectionSize(left) + collectionSize(right)) / 10))
        return (handle as (...x: unknown[]) => unknown).call(this, left, right, a, b)
      } as CelNode['handle']
    }
  }
}

/** The node's evaluation as cel-js dispatches it (ASTNode.evaluate), with a step counted first. */
function counted(node: CelNode, m: Meter): Evaluate {
  const meta = node.meta
  const alternate = meta.alternate
  if (alternate)
    return (ev, _node, ctx) => {
      if (++m.cost > m.budget) throw overBudget
      return alternate.evaluate(ev, alternate, ctx)
    }
  const macro = meta.macro
  if (macro)
    return (ev, _node, ctx) => {
      if (++m.cost > m.budget) throw overBudget
      return macro.evaluate(ev, macro, ctx)
    }
  const builds = BUILDS.has(node.op)
  return function (this: unknown, ev, ast, ctx) {
    if (++m.cost > m.budget) throw overBudget
    // Read at each call: a type check may set a node's evaluate (cel-js does for empty literals).
    const value = meta.evaluate.call(this, ev, ast, ctx)
    if (builds) charge(m, sizeOf(value))
    return value
  }
}

/** Characters of a string, elements of a list, entries of a map or bytes; 0 for anything else. */
export function sizeOf(v: unknown): number {
  if (typeof v === 'string') return v.length
  if (v === null || typeof v !== 'object') return 0
  if (Array.isArray(v) || v instanceof Uint8Array) return v.length
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
