/**
 * The `stacks` layout: stack.yaml checked at file:line:col like a manifest, the repository's files shared
 * out among the stack folders (every manifest in exactly one stack), and which stacks a run selects:
 * named ones, the ones a pull request changes (a change under .github/ plans them all), or all of them.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { parseConfig } from '../../src/config/parse.js'
import { parseStackFile } from '../../src/config/stack-file.js'
import { readStackLayout, selectStacks, type StackLayout } from '../../src/config/stack-layout.js'
import type { Diagnostic } from '../../src/diagnostics.js'

const place = (d: Diagnostic) => `${d.file}:${d.line}:${d.column} ${d.field ?? ''}: ${d.message}`

describe('stack.yaml', () => {
  it('holds a name, variables and a prune choice', () => {
    const read = parseStackFile(
      'teams/payments/stack.yaml',
      'apiVersion: obsdeploy/v1\nname: payments\nvars:\n  THRESHOLD: 10\n  TEAM: payments\nprune: true\n'
    )
    expect(read.diagnostics).toEqual([])
    expect(read.stack).toEqual({
      apiVersion: 'obsdeploy/v1',
      name: 'payments',
      vars: { THRESHOLD: 10, TEAM: 'payments' },
      prune: true
    })
    expect(read.nameAt).toEqual({ file: 'teams/payments/stack.yaml', line: 2, column: 7 })
  })

  it('reports each problem at its line and field, with a hint for a misspelled field', () => {
    const read = parseStackFile('s/stack.yaml', 'name: -payments\nvars:\n  not a name: 1\nprnue: true\n')
    expect(read.stack).toBeUndefined()
    expect(read.diagnostics.map(place).sort()).toEqual([
      "s/stack.yaml:1:7 name: must be 1-100 letters, digits, '.', '_', '-' or '/', starting with a letter or digit",
      's/stack.yaml:3:3 vars: "not a name" is not a variable name: letters, digits and _, not starting with a digit',
      's/stack.yaml:4:1 prnue: unknown field "prnue" (did you mean "prune"?)'
    ])
  })

  it('needs a name, one document, and a mapping', () => {
    expect(parseStackFile('a/stack.yaml', 'vars: {}\n').diagnostics.map(place)).toEqual([
      'a/stack.yaml:1:1 name: is required'
    ])
    expect(parseStackFile('a/stack.yaml', '# nothing yet\n').diagnostics.map(d => d.message)).toEqual([
      expect.stringMatching(/needs at least `name:`/)
    ])
    expect(parseStackFile('a/stack.yaml', 'name: a\n---\nkind: Dashboard\n').diagnostics.map(place)).toEqual([
      expect.stringMatching(/^a\/stack.yaml:3:1 : a stack file holds one document/)
    ])
    expect(parseStackFile('a/stack.yaml', '- name: a\n').diagnostics.map(d => d.message)).toEqual([
      'a stack file must be a mapping with `name:`, got a list of 1 item'
    ])
    expect(parseStackFile('a/stack.yaml', 'name: a\nname: b\n').diagnostics[0]!.message).toMatch(/duplicate/i)
  })
})

describe('the layout of a repository', () => {
  let ws: string
  const write = (files: Record<string, string>) => {
    for (const [rel, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true })
      writeFileSync(path.join(ws, rel), text)
    }
  }
  const read = () => readStackLayout(['observability/**/*.yaml', 'observability/**/*.yml'], ws)
  beforeEach(() => {
    ws = mkdtempSync(path.join(tmpdir(), 'obsdeploy-stacks-'))
  })
  afterEach(() => rmSync(ws, { recursive: true, force: true }))

  it('makes each folder with a stack.yaml a stack, with the files below it as its manifests', async () => {
    write({
      'observability/payments/stack.yaml': 'name: payments\nvars: { TEAM: payments }\n',
      'observability/payments/checkout.yaml': 'kind: Dashboard\nname: Checkout\n',
      'observability/payments/alerts/errors.yml': 'kind: Dashboard\nname: Errors\n',
      'observability/search/stack.yml': 'name: search\nprune: true\n',
      'observability/search/overview.yaml': 'kind: Dashboard\nname: Overview\n'
    })
    const layout = await read()
    expect(layout.diagnostics).toEqual([])
    expect(layout.stacks).toEqual([
      {
        name: 'payments',
        folder: 'observability/payments',
        file: 'observability/payments/stack.yaml',
        vars: { TEAM: 'payments' },
        prune: undefined,
        manifests: ['observability/payments/alerts/errors.yml', 'observability/payments/checkout.yaml']
      },
      {
        name: 'search',
        folder: 'observability/search',
        file: 'observability/search/stack.yml',
        vars: {},
        prune: true,
        manifests: ['observability/search/overview.yaml']
      }
    ])
  })

  it('refuses a manifest of no stack, a stack inside a stack, two stacks of one name and a broken stack.yaml', async () => {
    write({
      'observability/payments/stack.yaml': 'name: payments\n',
      'observability/payments/a.yaml': 'kind: Dashboard\nname: A\n',
      'observability/payments/inner/stack.yaml': 'name: inner\n',
      'observability/payments/inner/b.yaml': 'kind: Dashboard\nname: B\n',
      'observability/copy/stack.yaml': '# the same team twice\nname: payments\n',
      'observability/copy/c.yaml': 'kind: Dashboard\nname: C\n',
      'observability/broken/stack.yaml': 'nmae: broken\n',
      'observability/broken/d.yaml': 'kind: Dashboard\nname: D\n',
      'observability/loose.yaml': 'kind: Dashboard\nname: Loose\n'
    })
    const layout = await read()
    expect(layout.diagnostics.map(place).sort()).toEqual([
      'observability/broken/stack.yaml:1:1 name: is required',
      'observability/broken/stack.yaml:1:1 nmae: unknown field "nmae" (did you mean "name"?)',
      expect.stringMatching(/^observability\/loose.yaml:1:1 : belongs to no stack/),
      expect.stringMatching(
        /^observability\/payments\/inner\/stack.yaml:1:1 : is inside the folder of the stack in observability\/payments\/stack.yaml: stacks do not nest/
      ),
      // The first by folder keeps the name; the other is refused at its `name`.
      'observability/payments/stack.yaml:1:7 name: stack "payments" is already defined by observability/copy/stack.yaml: each stack needs its own name, because the name is its ownership tag'
    ])
    expect(layout.stacks.map(s => s.name)).toEqual(['payments'])
    expect(layout.stacks[0]!.folder).toBe('observability/copy')
    // The files of a broken stack are not reported again as belonging to no stack.
    expect(layout.diagnostics.filter(d => d.file === 'observability/broken/d.yaml')).toEqual([])
  })

  it("takes a file outside the stacks that holds only Policy documents as the repository's policy", async () => {
    write({
      'observability/payments/stack.yaml': 'name: payments\n',
      'observability/payments/a.yaml': 'kind: Dashboard\nname: A\n',
      'observability/policy.yaml':
        'kind: Policy\nname: org\nrecommended: true\n---\nkind: Policy\nname: more\n',
      'observability/mixed.yaml': 'kind: Policy\nname: org\n---\nkind: Dashboard\nname: Loose\n'
    })
    const layout = await read()
    expect(layout.policies).toEqual(['observability/policy.yaml'])
    expect(layout.diagnostics.map(place)).toEqual([
      expect.stringMatching(/^observability\/mixed.yaml:1:1 : belongs to no stack/)
    ])
    expect(layout.stacks[0]!.manifests).toEqual(['observability/payments/a.yaml'])
  })

  it('says so when stacks is on and there is no stack.yaml', async () => {
    write({ 'observability/a.yaml': 'kind: Dashboard\nname: A\n' })
    const layout = await read()
    expect(layout.stacks).toEqual([])
    expect(layout.diagnostics.map(d => d.message)).toEqual([
      expect.stringMatching(/^stacks is on, but no stack.yaml is among the files matched by/),
      expect.stringMatching(/belongs to no stack/)
    ])
  })
})

describe('which stacks a run plans', () => {
  const stack = (name: string, folder: string) => ({
    name,
    folder,
    file: `${folder}/stack.yaml`,
    vars: {},
    manifests: [`${folder}/main.yaml`]
  })
  const layout: StackLayout = {
    policies: [],
    stacks: [
      stack('payments', 'observability/payments'),
      stack('search', 'observability/search'),
      stack('search-ui', 'observability/search-ui')
    ],
    diagnostics: []
  }
  const names = (paths?: string[], only?: string[]) =>
    selectStacks(layout, { only, changed: paths ? { paths } : undefined }).stacks.map(s => s.name)

  it('without a pull request: all of them', () => {
    expect(names()).toEqual(['payments', 'search', 'search-ui'])
    expect(selectStacks(layout, {}).reason).toBe('all stacks')
  })

  it('on a pull request: the stacks whose folder holds a changed file, any file, at any depth', () => {
    expect(names(['observability/payments/checkout.yaml'])).toEqual(['payments'])
    expect(names(['observability/search/stack.yaml', 'observability/search/deep/notes.md'])).toEqual([
      'search'
    ])
    // A folder is a path segment, not a prefix: search/ is not search-ui/.
    expect(names(['observability/search-ui/x.yaml'])).toEqual(['search-ui'])
    // A rename lists both paths: the stack it leaves and the one it enters both change.
    expect(names(['observability/payments/moved.yaml', 'observability/search/moved.yaml'])).toEqual([
      'payments',
      'search'
    ])
  })

  it('a change outside every stack plans none, unless it is shared config (.github/), which plans all', () => {
    expect(names(['src/app.ts', 'README.md', 'observability/README.md'])).toEqual([])
    const shared = selectStacks(layout, {
      changed: { paths: ['README.md', '.github/workflows/observability.yml'] }
    })
    expect(shared.stacks.map(s => s.name)).toEqual(['payments', 'search', 'search-ui'])
    expect(shared.reason).toBe(
      'all stacks: .github/workflows/observability.yml changed, and it may change every plan'
    )
  })

  it("a change to the repository's policy plans every stack", () => {
    const withPolicy = { ...layout, policies: ['observability/policy.yaml'] }
    const selection = selectStacks(withPolicy, { changed: { paths: ['observability/policy.yaml'] } })
    expect(selection.stacks.map(s => s.name)).toEqual(['payments', 'search', 'search-ui'])
    expect(selection.reason).toBe(
      'all stacks: observability/policy.yaml changed, and it may change every plan'
    )
  })

  it('warns when a pull request takes away a stack.yaml: that stack is no longer planned', () => {
    const selection = selectStacks(layout, { changed: { paths: ['observability/billing/stack.yaml'] } })
    expect(selection.stacks).toEqual([])
    expect(selection.diagnostics.map(d => `${d.severity}: ${d.message}`)).toEqual([
      expect.stringMatching(/^warning: observability\/billing\/stack.yaml is no longer a stack file/)
    ])
  })

  it('named stacks win over changed files, and an unknown name is an error with a hint', () => {
    expect(names(['observability/payments/a.yaml'], ['search'])).toEqual(['search'])
    expect(names(undefined, ['search-ui', 'payments'])).toEqual(['payments', 'search-ui'])
    const unknown = selectStacks(layout, { only: ['serch'] })
    expect(unknown.stacks).toEqual([])
    expect(unknown.diagnostics.map(d => d.message)).toEqual([
      'stack: no stack is named "serch" (did you mean "search"?); the stacks are payments, search, search-ui'
    ])
  })
})

describe('the stacks input', () => {
  const parse = (raw: Record<string, string>) =>
    parseConfig(
      { command: 'validate', ...raw },
      {
        cwd: '/w',
        defaultStack: 'shop',
        defaultPlanPath: '/w/plan.json',
        serviceGate: () => ({ open: false, reason: '' }),
        label: name => `input \`${name}\``
      }
    )

  it('is off by default: one stack, named by `stack` or the repository', () => {
    expect(parse({}).config).toMatchObject({ stack: 'shop', stacks: undefined })
    expect(parse({ stack: 'web' }).config).toMatchObject({ stack: 'web', stacks: undefined })
  })

  it('with stacks on, `stack` names the stacks to run, each checked as a stack name', () => {
    expect(parse({ stacks: 'true' }).config?.stacks).toEqual({ only: [] })
    expect(parse({ stacks: 'true', stack: 'payments, search\nsearch-ui' }).config?.stacks).toEqual({
      only: ['payments', 'search', 'search-ui']
    })
    expect(parse({ stacks: 'true', stack: 'payments,-x' }).diagnostics.map(d => d.message)).toEqual([
      expect.stringMatching(/^input `stack`: must be 1-100 letters.*got "-x"$/)
    ])
  })
})
