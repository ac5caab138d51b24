/**
 * The parts of cel-js's syntax tree (lib/parser.js ASTNode, 8.x) the cost meter and the regular-expression
 * engine hook into. cel-js evaluates a node through `node.evaluate(ev, node, ctx)`, which dispatches to
 * the node's `meta`: a macro's expansion (`alternate`, e.g. the comprehension `all()` expands to), a macro
 * object (`has()`, `cel.bind()`), or its operator's evaluate. After a type check, calls and operators hold
 * the function they apply in `handle`. test/unit/policy-cel.test.ts pins each of these, so an upgrade of
 * cel-js that moves them fails a test rather than a budget.
 */
export interface CelNode {
  op: string
  /** Children: a node, an array of nodes (and of [key, value] pairs in a map literal), a comprehension's
   * parts, or a literal value. */
  args: unknown
  /** Offsets in the expression: where the node is reported, and its extent. */
  pos: number
  start: number
  end: number
  readonly input: string
  readonly meta: CelMeta
  evaluate: Evaluate
  handle?: (...args: never[]) => unknown
  checkedType?: { name: string; kind: string }
}

export type Evaluate = (this: unknown, ev: unknown, node: unknown, ctx: unknown) => unknown

export interface CelMeta {
  evaluate: Evaluate
  alternate?: CelNode
  macro?: { evaluate: Evaluate; macroHasProps?: CelNode[] } & Record<string, unknown>
}

/** Every node under `root` once, macro expansions and macro parts included. */
export function nodesOf(root: CelNode): CelNode[] {
  const Node = root.constructor
  const nodes: CelNode[] = []
  const seen = new Set<unknown>()
  const stack: unknown[] = [root]
  while (stack.length > 0) {
    const v = stack.pop()
    if (v === null || typeof v !== 'object' || seen.has(v)) continue
    seen.add(v)
    if (v instanceof Node) {
      const node = v as CelNode
      nodes.push(node)
      stack.push(node.args, node.meta.alternate, node.meta.macro)
    } else if (Array.isArray(v)) stack.push(...(v as unknown[]))
    // A comprehension's parts or a macro's: plain objects (their contexts are class instances, not walked).
    else if (Object.getPrototypeOf(v) === Object.prototype) stack.push(...Object.values(v))
  }
  return nodes
}
