/**
 * CEL, through @marcbachmann/cel-js: zero dependencies, a fraction of the bundle of @bufbuild/cel and
 * several times faster per evaluation, on plain JS values (no protobuf messages). Loaded on first use
 * only, so a run without policies never pays its start-up.
 *
 * On top of it, what CEL promises and cel-js does not keep:
 * - a type check at load against the declared shapes of the variables (shapes.ts): a misspelt field, an
 *   unknown function or a wrong type is an error at its offset in the expression, before any evaluation;
 * - a cost budget per evaluation (cost.ts): past it the evaluation stops with an error, never a hang;
 * - regular expressions on a linear-time engine with RE2's syntax (patterns.ts), as CEL specifies.
 * The check is once per rule; evaluations then run on the values as they are (every variable `dyn`).
 */
import { errorMessage } from '../error-message.js'
import { didYouMean } from '../manifest/issues.js'
import { MANIFEST_KINDS } from '../manifest/vocabulary.js'
import { nodesOf, type CelNode } from './cel-ast.js'
import { COST_BUDGET, meter, type Meter } from './cost.js'
import { linkPatternFunctions, loadPatterns } from './patterns.js'
import type { Declarations, Shape } from './shapes.js'

type CelModule = typeof import('@marcbachmann/cel-js')
type Environment = InstanceType<CelModule['Environment']>
type ObjectShape = Extract<Shape, { type: 'object' }>

/**
 * An evaluation's outcome, never thrown: its value, or why it has none. `cost` is the steps it took;
 * `limit` says the evaluation was stopped by the engine's own limits (the cost budget, the stack), which
 * is the rule's fault, not the values'.
 */
export type Evaluation =
  { value: unknown; cost: number } | { error: string; cost: number; limit?: 'cost' | 'stack' }

/** A compiled check: synchronous, and it never throws (a stack overflow is an Evaluation error too). */
export type CelProgram = (context: Record<string, unknown>) => Evaluation

/** Why an expression does not compile; `offset` (0-based, in the expression) says where, when known. */
export interface CompileError {
  error: string
  offset?: number
}

export { COST_BUDGET }

let loaded: Promise<[CelModule, void]> | undefined
let ready: CelModule | undefined
/** Where checks are evaluated: every variable `dyn`, so values are read as they are. */
let evaluator: Environment | undefined

export async function loadCel(): Promise<void> {
  loaded ??= Promise.all([import('@marcbachmann/cel-js'), loadPatterns()])
  ready = (await loaded)[0]
}

/**
 * Compiles a check over the variables `declarations` declares (shapes.ts declarationsFor: one object per
 * scope, so each scope's typed environment is built once). Call loadCel() first.
 */
export function compileCheck(
  expression: string,
  declarations: Declarations,
  budget = COST_BUDGET
): CelProgram | CompileError {
  // Each stack's policies are compiled apart; a rule of the repository's, once (evaluations never overlap).
  let compiled = compiledChecks.get(declarations)
  if (!compiled) compiledChecks.set(declarations, (compiled = new Map()))
  const key = `${budget}\u0000${expression}`
  let found = compiled.get(key)
  if (!found) compiled.set(key, (found = compile(expression, declarations, budget)))
  return found
}

const compiledChecks = new WeakMap<Declarations, Map<string, CelProgram | CompileError>>()

function compile(expression: string, declarations: Declarations, budget: number): CelProgram | CompileError {
  if (!ready) throw new Error('compileCheck before loadCel')
  try {
    const typed = typedEnvironment(ready, declarations)
    let checked: ReturnType<Environment['parse']>
    try {
      checked = typed.env.parse(expression)
    } catch (e) {
      if (isStackOverflow(e)) throw e
      return compileError(e, typed)
    }
    const verdict = checked.check()
    if (!verdict.valid) return compileError(verdict.error, typed)
    // A check is a condition: one that gives a string or a list cannot hold on any resource.
    const type = verdict.type ?? 'dyn'
    if (type !== 'bool' && !type.startsWith('dyn'))
      return { error: `the check gives ${/^[aeiou]/.test(type) ? 'an' : 'a'} ${type}, not a bool`, offset: 0 }
    const field = unknownHasField(nodesOf(checked.ast as unknown as CelNode), typed.objects)
    if (field) return field

    evaluator ??= new ready.Environment({ unlistedVariablesAreDyn: true })
    const program = evaluator.parse(expression)
    const dynamic = program.check()
    if (!dynamic.valid) return compileError(dynamic.error, typed)
    const nodes = nodesOf(program.ast as unknown as CelNode)
    const m: Meter = { cost: 0, budget }
    const literal = linkPatternFunctions(nodes, m)
    if (literal) return literal
    meter(nodes, m)
    return context => run(program, context, m, nodes.length)
  } catch (e) {
    // cel-js reports its own errors in `verdict`; what is thrown here is a stack overflow (or a bug).
    return { error: isStackOverflow(e) ? 'too deeply nested to compile (a stack overflow)' : oneLine(e) }
  }
}

function run(
  program: (context: Record<string, unknown>) => unknown,
  context: Record<string, unknown>,
  m: Meter,
  /** Steps before any iteration: each part of the expression once. */
  base: number
): Evaluation {
  m.cost = base
  try {
    const value = program(context)
    // An error that `||`, `&&` or a quantifier swallowed still counts: past the budget, nothing holds.
    return m.cost > m.budget ? overBudget(m) : { value, cost: m.cost }
  } catch (e) {
    if (m.cost > m.budget) return overBudget(m)
    if (isStackOverflow(e))
      return { error: 'too deeply nested to evaluate (a stack overflow)', cost: m.cost, limit: 'stack' }
    return { error: oneLine(e), cost: m.cost }
  }
}

const overBudget = (m: Meter): Evaluation => ({
  error: `it went over the cost budget of ${m.budget.toLocaleString('en-US')} steps (comprehension iterations, function calls, and the strings and lists it builds)`,
  cost: m.cost,
  limit: 'cost'
})

const isStackOverflow = (e: unknown) => e instanceof RangeError && /call stack/i.test(e.message)

/** A CEL error's first line: its messages draw the expression with a caret below, on later lines. */
export function oneLine(e: unknown): string {
  const summary = (e as { summary?: unknown }).summary
  const text = typeof summary === 'string' && summary ? summary : errorMessage(e)
  return text.split('\n')[0]!.trim()
}

interface Typed {
  env: Environment
  /** The object shapes declared, by CEL type name. */
  objects: Map<string, ObjectShape>
  variables: readonly string[]
  functions: readonly string[]
}

const typedEnvironments = new WeakMap<Declarations, Typed>()

/** An environment that declares each variable with its shape: for the type check only. */
function typedEnvironment(cel: CelModule, declarations: Declarations): Typed {
  const found = typedEnvironments.get(declarations)
  if (found) return found
  const env = new cel.Environment({ unlistedVariablesAreDyn: false })
  const objects = new Map<string, ObjectShape>()
  const typeOf = (shape: Shape): string => {
    switch (shape.type) {
      case 'string':
      case 'bool':
      case 'dyn':
        return shape.type
      // What a YAML number is at run time: a double that compares with integer literals, as CEL's dyn does.
      case 'number':
        return 'dyn<double>'
      case 'list':
        return `list<${typeOf(shape.of)}>`
      case 'map':
        return `map<string, ${typeOf(shape.of)}>`
      case 'object':
        if (!objects.has(shape.name)) {
          objects.set(shape.name, shape)
          const fields = Object.fromEntries(Object.entries(shape.fields).map(([k, s]) => [k, typeOf(s)]))
          env.registerType(shape.name, { fields })
          // `'tags' in resource` asks whether a field is there, and `a == b` compares two, as they do of the
          // plain values (only the check env holds these: they are never called).
          env.registerOperator(`string in ${shape.name}`, () => false)
          env.registerOperator(`${shape.name} == ${shape.name}`, () => false)
        }
        return shape.name
    }
  }
  for (const [name, shape] of Object.entries(declarations)) env.registerVariable(name, typeOf(shape))
  const functions = [...new Set(env.getDefinitions().functions.map(f => f.name))]
  const typed = { env, objects, variables: Object.keys(declarations), functions }
  typedEnvironments.set(declarations, typed)
  return typed
}

interface CelErrorLike {
  code?: string
  node?: CelNode
  range?: { start: number; end: number }
}

/** A cel-js error as a user reads it: an unknown function, field or variable named, with a guess, at its place. */
function compileError(e: unknown, typed: Typed): CompileError {
  const { code, node, range } = e as CelErrorLike
  const offset = node?.pos ?? range?.start
  const plain: CompileError = { error: oneLine(e), ...(offset !== undefined ? { offset } : {}) }
  if (!node) return plain
  const args = node.args as unknown[]
  if (code === 'no_matching_overload' && (node.op === 'call' || node.op === 'rcall')) {
    const name = args[0] as string
    const at = node.op === 'rcall' ? methodOffset(node, name) : node.start
    if (typed.functions.includes(name)) return { ...plain, offset: at }
    return { error: `unknown function \`${name}\`${guess(name, typed.functions)}`, offset: at }
  }
  if (code === 'no_such_key' && (node.op === '.' || node.op === '[]')) {
    const left = args[0] as CelNode
    const shape = typed.objects.get(left.checkedType?.name ?? '')
    const key = node.op === '.' ? args[1] : (args[1] as CelNode).args
    if (shape) return { error: noField(left, String(key), shape), offset: node.pos }
  }
  if (code === 'unknown_variable' && node.op === 'id') {
    const name = String(node.args)
    const planOnly = ['change', 'plan', 'labels'].includes(name) && !typed.variables.includes('change')
    const error = planOnly
      ? `\`${name}\` is read by rules with \`on: plan\` only`
      : `unknown variable \`${name}\`${guess(name, typed.variables)}`
    return { error, offset: node.start }
  }
  return plain
}

function guess(name: string, candidates: readonly string[]): string {
  const found = didYouMean(name, candidates)
  return found ? ` (did you mean \`${found}\`?)` : ''
}

/** What the message says of `left.field` when the shape of `left` declares no such field. */
function noField(left: CelNode, field: string, shape: ObjectShape): string {
  const of = left.input.slice(left.start, left.end)
  const kinds = shape.name.split('_or_')
  const what = kinds.length === MANIFEST_KINDS.length ? 'a manifest of any kind' : kinds.join(' or ')
  return `\`${of}\` (${what}) has no field \`${field}\`${guess(field, Object.keys(shape.fields))}`
}

/** Where a method's name is written: after its receiver and the dot. */
function methodOffset(node: CelNode, name: string): number {
  const receiver = (node.args as unknown[])[1] as CelNode
  const at = node.input.indexOf(name, receiver.end)
  return at >= 0 ? at : node.start
}

/**
 * cel-js checks only the variable of `has(a.b.c)`: its fields are checked here, against the declared
 * shapes, so `has(resource.tagz)` is refused like `resource.tagz`.
 */
function unknownHasField(nodes: readonly CelNode[], objects: Typed['objects']): CompileError | undefined {
  for (const node of nodes) {
    if (node.op !== 'call' || (node.args as unknown[])[0] !== 'has') continue
    const props = node.meta.macro?.macroHasProps
    if (!props?.length) continue
    // [a.b.c, a.b, a]: the variable last.
    let shape: Shape | undefined = objects.get(props[props.length - 1]!.checkedType?.name ?? '')
    for (let i = props.length - 2; i >= 0 && shape?.type === 'object'; i--) {
      const access = props[i]!
      const [left, field] = access.args as [CelNode, string]
      const next: Shape | undefined = shape.fields[field]
      if (!next) return { error: noField(left, field, shape), offset: access.pos }
      shape = next
    }
  }
  return undefined
}
