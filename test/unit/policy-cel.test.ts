/**
 * The CEL engine of policies (src/policy/cel.ts and its parts): the type check against the declared
 * shapes, the cost budget, and regular expressions on RE2. Several tests pin how the engine hooks into
 * cel-js (every node's evaluate, the `handle` of calls): an upgrade of cel-js that moves them fails here.
 */
import { beforeAll, describe, expect, it } from '@jest/globals'
import { compileCheck, COST_BUDGET, loadCel, type CelProgram, type Evaluation } from '../../src/policy/cel.js'
import { durationError } from '../../src/policy/patterns.js'
import { RECOMMENDED_RULES } from '../../src/policy/recommended.js'
import { declarationsFor, DYN, type Declarations } from '../../src/policy/shapes.js'

beforeAll(loadCel)

const dashboards = declarationsFor(['Dashboard'], false)
const alerts = declarationsFor(['Alert'], false)

const tile = (i: number) => ({ name: `Tile ${i}`, x: 0, y: i * 3, w: 6, h: 3, series: [{ type: 'time' }] })
const dashboard = (tiles: number) => ({
  kind: 'Dashboard',
  name: 'Checkout',
  tags: Array.from({ length: 49 }, (_, i) => `tag-${i}`),
  tiles: Array.from({ length: tiles }, (_, i) => tile(i))
})

function program(expression: string, declarations: Declarations = dashboards, budget?: number): CelProgram {
  const compiled = compileCheck(expression, declarations, budget)
  if (typeof compiled !== 'function') throw new Error(`${expression}: ${compiled.error}`)
  return compiled
}

const refused = (expression: string, declarations: Declarations = dashboards) => {
  const compiled = compileCheck(expression, declarations)
  return typeof compiled === 'function' ? undefined : compiled
}

const valueOf = (e: Evaluation) => ('value' in e ? e.value : e.error)

describe('the type check at load', () => {
  it('refuses an unknown function, at the name, with a guess', () => {
    expect(refused("resource.name.startswith('S')")).toEqual({
      error: 'unknown function `startswith` (did you mean `startsWith`?)',
      offset: 14
    })
    expect(refused('sizeof(resource.tiles) < 3')).toEqual({
      error: 'unknown function `sizeof` (did you mean `size`?)',
      offset: 0
    })
  })

  it('refuses a misspelt field of a known shape, in has() too, and inside a comprehension', () => {
    expect(refused("resource.nmae == 'x'")).toEqual({
      error: '`resource` (Dashboard) has no field `nmae` (did you mean `name`?)',
      offset: 9
    })
    expect(refused('has(resource.tagz)')).toMatchObject({
      offset: 13,
      error: expect.stringContaining('`tagz`')
    })
    expect(refused("resource.tiles.all(t, t.nme != '')")).toEqual({
      error: '`t` (Dashboard.tiles) has no field `nme` (did you mean `name`?)',
      offset: 24
    })
    expect(refused('has(resource.tiles)')).toBeUndefined()
  })

  it('refuses a wrong type', () => {
    expect(refused('resource.name > 3')?.error).toBe('no such overload: string > int')
    expect(refused("resource.tags.startsWith('x')")?.error).toMatch(/no matching overload/)
    expect(refused('resource.threshold * 2 > 1', alerts)?.error).toMatch(/no such overload/)
  })

  it('keeps what works on YAML values: numbers (doubles) against integer literals, sizes, membership', () => {
    for (const check of [
      'resource.threshold > 0',
      'resource.threshold == 1',
      'resource.threshold in [1, 2]',
      'has(resource.thresholdMax) ? resource.thresholdMax : 0',
      'int(resource.threshold) + 1 > 2',
      'resource.threshold * 2.0 > 1.0',
      "has(resource.channel) && resource.channel.type == 'webhook'",
      "'channels' in resource"
    ])
      expect([check, refused(check, alerts)]).toEqual([check, undefined])
    for (const check of [
      'size(resource.tiles) <= 20',
      'resource.tiles.all(t, t.w >= 6 && t.w in [6, 12, 24])',
      "'team:payments' in resource.tags",
      'resource.tiles.all(a, resource.tiles.exists_one(b, a == b))',
      'dyn(resource).anything == 1'
    ])
      expect([check, refused(check)]).toEqual([check, undefined])
    const threshold = program('resource.threshold == 1 && resource.threshold in [1, 2]', alerts)
    expect(threshold({ resource: { threshold: 1 } })).toEqual({ value: true, cost: expect.any(Number) })
  })

  it('declares change, plan and labels for plan-time rules only', () => {
    const plan = declarationsFor(['Dashboard'], true)
    for (const check of [
      "change.action != 'delete' || !('critical' in change.tags) || 'approved-delete' in labels",
      'plan.after.Alert <= 50',
      'change.name in plan.elsewhere.Dashboard',
      "change.query.status != 'empty'",
      'plan.counts.delete < 3.0'
    ])
      expect([check, refused(check, plan)]).toEqual([check, undefined])
    expect(refused('plan.after.Alrt <= 50', plan)?.error).toMatch(
      /has no field `Alrt` \(did you mean `Alert`\?\)/
    )
    expect(refused("change.action == 'delete'")).toEqual({
      error: '`change` is read by rules with `on: plan` only',
      offset: 0
    })
  })

  it('passes every rule of the recommended pack', () => {
    for (const rule of RECOMMENDED_RULES)
      expect([rule.id, refused(rule.check, declarationsFor(rule.kinds, rule.on === 'plan'))]).toEqual([
        rule.id,
        undefined
      ])
  })

  it('knows the fields of every kind a rule names, and of all kinds without `kinds`', () => {
    const both = declarationsFor(['Dashboard', 'Alert'], false)
    expect(refused('has(resource.tiles) || has(resource.threshold)', both)).toBeUndefined()
    expect(refused('has(resource.email)', both)?.error).toContain('(Dashboard or Alert)')
    expect(
      refused('has(resource.email) && has(resource.tiles)', declarationsFor(undefined, false))
    ).toBeUndefined()
  })
})

describe('the cost budget', () => {
  it('counts each comprehension iteration, and what the evaluation builds', () => {
    const each = program('resource.tiles.all(t, true)')({ resource: dashboard(500) })
    expect(each).toEqual({ value: true, cost: expect.any(Number) })
    // The body (`true`, expanded to a condition and its two outcomes) is charged on each of 500 iterations.
    expect(each.cost).toBeGreaterThanOrEqual(2000)
    expect(each.cost).toBeLessThan(2100)
    const joined = program("resource.tiles.map(t, t.name).join(',').size() > 0")({ resource: dashboard(500) })
    // 500 names of 5-7 characters, joined: over 3,000 characters built.
    expect(joined.cost).toBeGreaterThan(3000 + 500)
  })

  // With a budget of a million steps: cel-js runs some 20 times slower under jest's VM modules than in
  // the bundle (the e2e test and the bench stop the same rule at the full budget).
  it('stops nested comprehensions over 500 tiles with an error, not a hang', () => {
    const nested =
      'resource.tiles.all(a, resource.tiles.all(b, resource.tiles.all(c, a.name != c.name || true)))'
    const result = program(nested, dashboards, 1_000_000)({ resource: dashboard(500) })
    expect(result).toEqual({
      error: expect.stringContaining('over the cost budget of 1,000,000 steps'),
      cost: expect.any(Number),
      limit: 'cost'
    })
    expect(result.cost).toBeGreaterThan(1_000_000)
    // Past the budget, each iteration still asked for throws at once: the loops run out in a step each.
    expect(result.cost).toBeLessThan(1_050_000)
    expect(COST_BUDGET).toBe(20_000_000)
  })

  it('is not swallowed by || , && or a quantifier, which swallow other errors', () => {
    const big = 'resource.tiles.all(a, resource.tiles.all(b, true))'
    for (const check of [
      `${big} || true`,
      `true && (${big} || true)`,
      `[1, 2].exists(x, ${big}) || true`,
      `[1].exists(x, ${big} || x == 1)`
    ]) {
      const result = program(check, dashboards, 10_000)({ resource: dashboard(200) })
      expect([check, 'limit' in result && result.limit]).toEqual([check, 'cost'])
    }
    // Other errors are CEL's to swallow: `||` with a true side holds.
    expect(valueOf(program('resource.tiles[9].name == "x" || true')({ resource: dashboard(2) }))).toBe(true)
  })

  it('charges the strings and lists a function reads, a tenth of a step each', () => {
    const long = { kind: 'Dashboard', name: 'x'.repeat(100_000) }
    const cost = program("resource.name.contains('y')")({ resource: long }).cost
    expect(cost).toBeGreaterThanOrEqual(10_000)
    expect(cost).toBeLessThan(10_100)
  })

  it('leaves every sensible rule over the largest dashboard far below the budget', () => {
    const resource = dashboard(500)
    for (const check of [
      // Every tile name unique: each tile against every other.
      'resource.tiles.all(a, resource.tiles.exists_one(b, b.name == a.name))',
      "resource.tiles.all(t, t.name.matches('^[A-Z][a-z]+ [0-9]+$') && t.w >= 3)",
      "resource.tags.all(t, t.matches('^[a-z0-9:-]+$')) && size(resource.tiles) <= 500"
    ]) {
      const result = program(check)({ resource })
      expect([check, valueOf(result)]).toEqual([check, true])
      expect(result.cost).toBeLessThan(COST_BUDGET / 5)
    }
  })
})

describe('regular expressions on RE2', () => {
  it('answers ^(a+)+$ on a long string at once: no backtracking', () => {
    const check = program("resource.name.matches('^(a+)+$')")
    expect(valueOf(check({ resource: { name: `${'a'.repeat(34)}!` } }))).toBe(false)
    expect(valueOf(check({ resource: { name: `${'a'.repeat(100_000)}!` } }))).toBe(false)
    expect(valueOf(check({ resource: { name: 'a'.repeat(1000) } }))).toBe(true)
  })

  it('finds the pattern anywhere, as CEL does', () => {
    expect(valueOf(program("resource.name.matches('out')")({ resource: { name: 'Checkout' } }))).toBe(true)
    expect(valueOf(program("resource.name.matches('^out')")({ resource: { name: 'Checkout' } }))).toBe(false)
  })

  it('refuses what RE2 does not take: a literal pattern at load, where it is written; a computed one when evaluated', () => {
    // JavaScript takes a back-reference; RE2 has none.
    expect(refused("resource.name.matches('(a)\\\\1')")).toEqual({
      error: 'invalid regular expression (RE2 syntax): invalid escape sequence: `\\1`',
      offset: 22
    })
    expect(refused("resource.name.matches('(?=a)')")?.error).toMatch(/RE2 syntax.*\(\?=/)
    const computed = program("resource.name.matches(resource.name + '(')")({ resource: { name: 'a' } })
    expect(computed).toEqual({
      error: expect.stringContaining('missing closing )'),
      cost: expect.any(Number)
    })
  })

  it('reads a duration in one pass: thousands of digits are refused at once', () => {
    expect(durationError('1h30m')).toBeUndefined()
    expect(durationError('-1.5s')).toBeUndefined()
    expect(durationError('1x')).toBe("invalid duration string: '1x'")
    const digits = program('duration(resource.name) > duration("1s")')
    expect(check(digits, '5000'.repeat(2000))).toMatch(/invalid duration string/)
    expect(check(digits, '90m')).toBe(true)
    expect(refused("duration('1x') > duration('1s')")).toEqual({
      error: "invalid duration string: '1x'",
      offset: 9
    })
  })
})

const check = (p: CelProgram, name: string) => valueOf(p({ resource: { name } }))

it('turns a stack overflow while evaluating into an error of the evaluation, never a crash', () => {
  const deep = () => {
    let v: unknown[] = []
    for (let i = 0; i < 200_000; i++) v = [v]
    return v
  }
  const result = program('a == b', { a: DYN, b: DYN })({ a: deep(), b: deep() })
  // The engine's limit, not the values' fault: check.ts reports it at the rule, like the cost budget.
  expect(result).toEqual({
    error: 'too deeply nested to evaluate (a stack overflow)',
    cost: expect.any(Number),
    limit: 'stack'
  })
})

it('refuses a check that is not a condition', () => {
  expect(refused('resource.name')).toEqual({ error: 'the check gives a string, not a bool', offset: 0 })
  expect(refused('size(resource.tiles)')).toEqual({ error: 'the check gives an int, not a bool', offset: 0 })
  expect(refused('dyn(resource.name)')).toBeUndefined()
})
