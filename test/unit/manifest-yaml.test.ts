/**
 * YAML-level validation: syntax errors, documents that are not manifests, `kind` and `apiVersion`, and
 * hostile input (alias bombs, deep nesting, binary junk, duplicate keys). Every case must end in a
 * diagnostic with a place, never in an exception or a hang.
 *
 * Inputs that overflow the parser's stack run in a child process: a second stack overflow in the same
 * process kills Node itself (see the `it.failing` test below), and that must not take the jest worker down.
 */
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from '@jest/globals'
import { hasErrors, type Diagnostic } from '../../src/diagnostics.js'
import { validateText, type ManifestSet } from '../../src/manifest/load.js'
import { YAML_LIMITS } from '../../src/manifest/yaml.js'

const REPO = fileURLToPath(new URL('../..', import.meta.url))

/** One line per argument, so a test reads its own line numbers off the list. */
const lines = (...rows: string[]): string => `${rows.join('\n')}\n`

const place = (d: Diagnostic) => ({
  file: d.file,
  line: d.line,
  column: d.column,
  field: d.field,
  message: d.message
})
const errors = (set: ManifestSet) => set.diagnostics.filter(d => d.severity === 'error').map(place)

const validate = (text: string, mode: 'self-hosted' | 'managed' = 'self-hosted') =>
  validateText('m.yaml', text, mode)

/** Every diagnostic points somewhere and says something. */
function expectWellFormed(set: ManifestSet): void {
  for (const d of set.diagnostics) {
    expect(d.file).toBe('m.yaml')
    expect(d.line).toBeGreaterThanOrEqual(1)
    expect(d.column).toBeGreaterThanOrEqual(1)
    expect(d.message.trim()).not.toBe('')
  }
}

interface ChildResult {
  status: number | null
  signal: NodeJS.Signals | null
  stderr: string
  results: Array<{ count: number; messages: string[]; wellFormed: boolean }>
}

/**
 * Runs validateText in a fresh Node process on the text `build` (a JS expression) produces, `times`
 * times, and reports what each run found. Deep inputs live here, away from the jest worker.
 */
function validateInChild(build: string, times = 1): ChildResult {
  const code = `
    import { validateText } from './src/manifest/load.ts'
    const text = ${build}
    for (let i = 0; i < ${times}; i++) {
      const r = validateText('deep.yaml', text, 'self-hosted')
      const wellFormed = r.diagnostics.every(d => d.file === 'deep.yaml' && d.line >= 1 && d.message.length > 0)
      const messages = [...new Set(r.diagnostics.map(d => d.message))]
      process.stdout.write(JSON.stringify({ count: r.diagnostics.length, messages, wellFormed }) + '\\n')
    }
  `
  const env = { ...process.env }
  delete env.NODE_OPTIONS
  const child = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', code], {
    cwd: REPO,
    env,
    encoding: 'utf8',
    timeout: 30_000
  })
  const results = child.stdout
    .split('\n')
    .filter(l => l.startsWith('{'))
    .map(l => JSON.parse(l) as ChildResult['results'][number])
  return { status: child.status, signal: child.signal, stderr: child.stderr, results }
}

describe('YAML syntax', () => {
  it('reports an unclosed flow sequence as a syntax error at the line where YAML gave up', () => {
    const set = validate(lines('kind: Dashboard', 'name: [a'))
    expect(errors(set)).toEqual([
      {
        file: 'm.yaml',
        line: 3,
        column: 1,
        field: undefined,
        message:
          'YAML syntax error: Flow sequence in block collection must be sufficiently indented and end with a ]'
      }
    ])
    expect(set.specs.Dashboard).toEqual([])
  })

  it('reports a missing closing quote', () => {
    expect(errors(validate(lines('kind: Dashboard', 'name: "abc')))).toEqual([
      expect.objectContaining({ line: 3, column: 1, message: 'YAML syntax error: Missing closing "quote' })
    ])
  })

  it('reports tab indentation at the tab', () => {
    expect(errors(validate(lines('kind: Dashboard', '\tname: x')))).toEqual([
      expect.objectContaining({
        line: 2,
        column: 1,
        message: 'YAML syntax error: Tabs are not allowed as indentation'
      })
    ])
  })

  it('keeps the YAML message to one line, without the library position suffix', () => {
    for (const d of validate(lines('kind: Dashboard', 'name: x', '  bad: indent')).diagnostics) {
      expect(d.message).toMatch(/^YAML syntax error: /)
      expect(d.message).not.toContain('\n')
      expect(d.message).not.toMatch(/at line \d+, column \d+/)
    }
  })

  it('validates the other documents of a file when one document has a syntax error', () => {
    const set = validate(
      lines('kind: Dashboard', 'name: [broken', '---', 'kind: Dashboard', 'name: Fine', 'tags: 5')
    )
    expect(errors(set)).toEqual([
      expect.objectContaining({ line: 3, message: expect.stringMatching(/^YAML syntax error/) }),
      { file: 'm.yaml', line: 6, column: 7, field: 'tags', message: 'must be a list, got 5' }
    ])
  })

  it('reports a duplicate key at the second occurrence', () => {
    expect(errors(validate(lines('kind: Dashboard', 'name: a', 'name: b')))).toEqual([
      {
        file: 'm.yaml',
        line: 3,
        column: 1,
        field: undefined,
        message: 'YAML duplicate key: Map keys must be unique'
      }
    ])
  })

  it('reports a duplicate key nested in a tile', () => {
    const set = validate(
      lines('kind: Dashboard', 'name: D', 'tiles:', '  - name: T', '    x: 0', '    x: 1', '    y: 0')
    )
    expect(errors(set)).toEqual([
      expect.objectContaining({ line: 6, column: 5, message: 'YAML duplicate key: Map keys must be unique' })
    ])
  })
})

describe('documents that are not manifests', () => {
  it('refuses a list with the place of the document', () => {
    expect(errors(validate(lines('- a', '- b')))).toEqual([
      {
        file: 'm.yaml',
        line: 1,
        column: 1,
        field: undefined,
        message: 'a manifest must be a mapping with a `kind`, got a list of 2 items'
      }
    ])
  })

  it('refuses a scalar document by its type and length, never its content', () => {
    expect(errors(validate(lines('---', 'hello')))).toEqual([
      expect.objectContaining({
        line: 2,
        column: 1,
        message: 'a manifest must be a mapping with a `kind`, got a string of 5 characters'
      })
    ])
  })

  it('never quotes a line of a file that is not a manifest (a password file, a key)', () => {
    const passwd = 'root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n'
    // A plain scalar folds its lines into one: 79 characters.
    expect(errors(validate(passwd)).map(e => e.message)).toEqual([
      'a manifest must be a mapping with a `kind`, got a string of 79 characters'
    ])
    const env = 'SECRET_TOKEN=abcd1234efgh5678\nOTHER=xyz\n'
    expect(errors(validate(env)).map(e => e.message)).toEqual([
      'a manifest must be a mapping with a `kind`, got a string of 39 characters'
    ])
    const block = 'kind: Dashboard\nname: x\ntiles: |\n  line one\n  line two\n'
    expect(errors(validate(block)).map(e => e.message)).toEqual([
      'must be a list, got a string of 18 characters on 3 lines'
    ])
  })

  it('skips an explicit null document like an empty one: it declares nothing', () => {
    const set = validate(lines('kind: Dashboard', 'name: x', '---', '~'))
    expect(errors(set)).toEqual([])
    expect(set.specs.Dashboard.map(d => d.spec.name)).toEqual(['x'])
  })

  it('warns about an empty file and a file of comments: no documents, nothing managed', () => {
    for (const text of ['', '# nothing here yet\n', '---\n# all of it commented out\n---\n']) {
      const set = validate(text)
      expect(set.diagnostics).toEqual([
        expect.objectContaining({
          severity: 'warning',
          file: 'm.yaml',
          line: 1,
          column: 1,
          message: expect.stringMatching(/^no documents: the file is empty or holds only comments/)
        })
      ])
      expect(hasErrors(set.diagnostics)).toBe(false)
      expect(set.specs.Dashboard).toEqual([])
    }
  })

  it('accepts a leading `---` and a `...` document end marker', () => {
    const set = validate(lines('---', 'kind: Dashboard', 'name: x', '...'))
    expect(set.diagnostics).toEqual([])
    expect(set.specs.Dashboard.map(d => d.spec.name)).toEqual(['x'])
  })

  // yaml.ts skips "an empty document, e.g. after a trailing `---`" with `doc.contents === null`, but the
  // yaml library gives such a document a null Scalar, not null: the skip never happens.
  it('accepts a trailing `---` (an empty last document) without an error', () => {
    const set = validate(lines('kind: Dashboard', 'name: x', '---'))
    expect(set.diagnostics).toEqual([])
    expect(set.specs.Dashboard).toHaveLength(1)
  })

  it('refuses more documents than the per-file limit, once, at the top of the file', () => {
    const docs = Array.from(
      { length: YAML_LIMITS.maxDocuments + 1 },
      (_, i) => `kind: Dashboard\nname: D${i}\n`
    )
    const set = validate(docs.join('---\n'))
    expect(errors(set)).toEqual([
      {
        file: 'm.yaml',
        line: 1,
        column: 1,
        field: undefined,
        message: `too many YAML documents (${YAML_LIMITS.maxDocuments + 1}); at most ${YAML_LIMITS.maxDocuments} per file`
      }
    ])
  })

  it('accepts exactly the per-file limit of documents', () => {
    const docs = Array.from({ length: YAML_LIMITS.maxDocuments }, (_, i) => `kind: Dashboard\nname: D${i}\n`)
    const set = validate(docs.join('---\n'))
    expect(set.diagnostics).toEqual([])
    expect(set.specs.Dashboard).toHaveLength(YAML_LIMITS.maxDocuments)
  })
})

describe('kind and apiVersion', () => {
  it('requires `kind`, pointing at the document and listing the kinds', () => {
    expect(errors(validate(lines('name: x')))).toEqual([
      {
        file: 'm.yaml',
        line: 1,
        column: 1,
        field: 'kind',
        message:
          'is required: one of Connection, Source, SavedSearch, Webhook, Dashboard, Alert, ServiceSettings, TeamMember, Role, Policy'
      }
    ])
  })

  it('refuses an unknown kind at its value with a did-you-mean hint', () => {
    expect(errors(validate(lines('name: x', 'kind: Dashbord')))).toEqual([
      {
        file: 'm.yaml',
        line: 2,
        column: 7,
        field: 'kind',
        message:
          'must be one of Connection, Source, SavedSearch, Webhook, Dashboard, Alert, ServiceSettings, TeamMember, Role, Policy, got "Dashbord" (did you mean "Dashboard"?)'
      }
    ])
  })

  it('suggests Policy for a misspelt policy', () => {
    expect(errors(validate(lines('kind: Polcy')))[0]!.message).toContain('(did you mean "Policy"?)')
  })

  it('suggests the right case for a kind written in lower case', () => {
    expect(errors(validate(lines('kind: alert')))[0]!.message).toContain('(did you mean "Alert"?)')
  })

  it('gives no hint for a kind that resembles nothing', () => {
    expect(errors(validate(lines('kind: Pipeline')))).toEqual([
      expect.objectContaining({
        field: 'kind',
        message:
          'must be one of Connection, Source, SavedSearch, Webhook, Dashboard, Alert, ServiceSettings, TeamMember, Role, Policy, got "Pipeline"'
      })
    ])
  })

  it('refuses a kind that is not a string', () => {
    expect(errors(validate(lines('kind: 3')))).toEqual([
      expect.objectContaining({
        line: 1,
        column: 7,
        field: 'kind',
        message:
          'must be one of Connection, Source, SavedSearch, Webhook, Dashboard, Alert, ServiceSettings, TeamMember, Role, Policy, got 3'
      })
    ])
  })

  it('accepts apiVersion obsdeploy/v1', () => {
    const set = validate(lines('apiVersion: obsdeploy/v1', 'kind: Dashboard', 'name: x'))
    expect(set.diagnostics).toEqual([])
    expect(set.specs.Dashboard[0]!.spec.apiVersion).toBe('obsdeploy/v1')
  })

  it('refuses any other apiVersion at its value, with a hint', () => {
    expect(errors(validate(lines('apiVersion: obsdeploy/v2', 'kind: Dashboard', 'name: x')))).toEqual([
      {
        file: 'm.yaml',
        line: 1,
        column: 13,
        field: 'apiVersion',
        message: 'must be one of obsdeploy/v1, got "obsdeploy/v2" (did you mean "obsdeploy/v1"?)'
      }
    ])
  })

  it('refuses a Kubernetes-style apiVersion on every kind', () => {
    for (const kind of ['Dashboard', 'Alert', 'ServiceSettings']) {
      const set = validate(lines('apiVersion: v1', `kind: ${kind}`), 'managed')
      expect(set.diagnostics.filter(d => d.field === 'apiVersion')).toEqual([
        expect.objectContaining({ line: 1, column: 13, message: 'must be one of obsdeploy/v1, got "v1"' })
      ])
    }
  })
})

describe('hostile YAML', () => {
  const billionLaughs = lines(
    'kind: Dashboard',
    'name: lol',
    'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
    'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]',
    'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]',
    'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]',
    'e: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d]',
    'f: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e]',
    'g: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f]',
    'h: &h [*g,*g,*g,*g,*g,*g,*g,*g,*g]',
    'i: &i [*h,*h,*h,*h,*h,*h,*h,*h,*h]',
    'tags: *i'
  )

  it('refuses an alias bomb ("billion laughs") as resource exhaustion, at the alias that goes over the limit', () => {
    const set = validate(billionLaughs)
    expect(errors(set)).toEqual([
      {
        // `d: &d [*c, ...`: the first *c expands to 10 x 10 x 10 values.
        file: 'm.yaml',
        line: 6,
        column: 8,
        field: undefined,
        message: `YAML too many alias expansions (more than ${YAML_LIMITS.maxAliasCount}): refused as a resource exhaustion attack`
      }
    ])
    expect(set.specs.Dashboard).toEqual([])
  }, 10_000)

  it('refuses the alias bomb in a later document at its alias, and keeps the first one', () => {
    const set = validate(lines('kind: Dashboard', 'name: fine', '---') + billionLaughs)
    expect(errors(set)).toEqual([
      expect.objectContaining({
        line: 9,
        column: 8,
        message: expect.stringContaining('too many alias expansions')
      })
    ])
    expect(set.specs.Dashboard.map(d => d.spec.name)).toEqual(['fine'])
  }, 10_000)

  it('accepts ordinary anchors and aliases', () => {
    const set = validate(
      lines(
        'kind: Dashboard',
        'name: D',
        'tiles:',
        '  - name: A',
        '    x: 0',
        '    y: 0',
        '    w: 6',
        '    h: 3',
        '    series: &notes [{ type: markdown, content: hi }]',
        '  - name: B',
        '    x: 6',
        '    y: 0',
        '    w: 6',
        '    h: 3',
        '    series: *notes'
      )
    )
    expect(set.diagnostics).toEqual([])
    expect(set.specs.Dashboard[0]!.spec.tiles![1]!.series).toEqual([{ type: 'markdown', content: 'hi' }])
  })

  it('treats a `<<` merge key as an unknown field (YAML 1.2 has no merge), at the key', () => {
    const set = validate(
      lines(
        'kind: Dashboard',
        'name: D',
        'tiles:',
        '  - &tile',
        '    name: A',
        '    x: 0',
        '    y: 0',
        '    w: 6',
        '    h: 3',
        '    series: [{ type: markdown, content: hi }]',
        '  - <<: *tile',
        '    name: B'
      )
    )
    expect(errors(set)).toContainEqual(
      expect.objectContaining({
        line: 11,
        column: 5,
        field: 'tiles[1].<<',
        message: expect.stringMatching(/^unknown field "<<"/)
      })
    )
    expect(errors(set)).toContainEqual(
      expect.objectContaining({ line: 11, column: 5, field: 'tiles[1].x', message: 'is required' })
    )
  })

  // yaml.ts:125 turns every toJS() error whose message mentions "alias" into the alias-bomb message, so a
  // simple typo in an alias name (the library's "Unresolved alias (the anchor must be set before the
  // alias): nope") is reported as "too many alias expansions ... resource exhaustion attack".
  it('reports an alias to an undefined anchor as such, not as an alias bomb', () => {
    const [error] = errors(validate(lines('kind: Dashboard', 'name: *nope')))
    expect(error!.message).not.toContain('too many alias expansions')
    expect(error!.message).toContain('nope')
    expect([error!.line, error!.column]).toEqual([2, 7])
  })

  it('refuses a document nested deeper than the limit (100 levels of block mappings) at the document', () => {
    let nested = ''
    for (let i = 0; i < 100; i++) nested += `${'  '.repeat(i)}k${i}:\n`
    nested += `${'  '.repeat(100)}leaf: 1\n`
    const set = validate(lines('kind: Dashboard', 'name: D') + nested)
    expect(errors(set)).toEqual([
      {
        file: 'm.yaml',
        line: 1,
        column: 1,
        field: undefined,
        message: `YAML is nested deeper than ${YAML_LIMITS.maxDepth} levels`
      }
    ])
  })

  it('accepts nesting up to the limit and reports the real problem instead', () => {
    let nested = 'extra:\n'
    for (let i = 1; i < YAML_LIMITS.maxDepth - 1; i++) nested += `${'  '.repeat(i)}k${i}:\n`
    nested += `${'  '.repeat(YAML_LIMITS.maxDepth - 1)}leaf: 1\n`
    expect(errors(validate(lines('kind: Dashboard', 'name: D') + nested))).toEqual([
      expect.objectContaining({
        line: 3,
        column: 1,
        field: 'extra',
        message: expect.stringMatching(/^unknown field "extra"/)
      })
    ])
  })

  it('refuses 200 nested flow sequences without throwing', () => {
    const set = validate(`kind: Dashboard\nname: D\ntags: ${'['.repeat(200)}${']'.repeat(200)}\n`)
    expect(errors(set)).toEqual([
      expect.objectContaining({
        line: 3,
        column: 71, // the 65th bracket
        message: `YAML is nested deeper than ${YAML_LIMITS.maxDepth} levels`
      })
    ])
  })

  it('refuses 10,000 unclosed `[` with a nesting error, without crashing or throwing', () => {
    const child = validateInChild(`'['.repeat(10000)`)
    expect(child.stderr).toBe('')
    expect(child.status).toBe(0)
    expect(child.results).toHaveLength(1)
    const [run] = child.results
    expect(run!.wellFormed).toBe(true)
    expect(run!.messages).toContain('YAML is nested deeper than 64 levels')
  }, 30_000)

  it('refuses 10,000 nested `[...]` and 10,000 nested `- ` with a nesting error', () => {
    for (const build of [`'['.repeat(10000) + ']'.repeat(10000)`, `'- '.repeat(10000) + 'x'`]) {
      const child = validateInChild(build)
      expect(child.status).toBe(0)
      expect(child.results[0]!.wellFormed).toBe(true)
      expect(child.results[0]!.messages).toContain('YAML is nested deeper than 64 levels')
    }
  }, 30_000)

  // A stack overflow inside the yaml parser is caught once, but the second one in the same process aborts
  // Node with "FATAL ERROR: RegExpCompiler Allocation failed - process out of memory" (exit 134, SIGABRT).
  // The CLI validating two such files, or the fuzzer, dies. A depth check before parsing would avoid it.
  it('survives validating two deeply nested documents in one process', () => {
    const child = validateInChild(`'- '.repeat(10000) + 'x'`, 2)
    expect({ status: child.status, signal: child.signal, runs: child.results.length }).toEqual({
      status: 0,
      signal: null,
      runs: 2
    })
  }, 30_000)

  it('does not throw on NUL bytes, control characters or replacement characters in the text', () => {
    for (const text of [
      '\u0000\u0001\u0002\u00ff\ufffd',
      '\ufffe\uffff: [\u0000',
      '{\u0000: \u0001}\n---\n\u0000'
    ]) {
      const set = validate(text)
      expectWellFormed(set)
      expect(set.diagnostics.length).toBeGreaterThan(0)
    }
    // Control characters inside a scalar are only a string to the parser (files with NUL bytes are refused
    // before parsing, by loadManifests): what matters here is that nothing throws.
    expectWellFormed(validate('kind: Dashboard\nname: \u0007\u0000\n'))
  })

  it('refuses a document whose only content is binary junk as not a mapping', () => {
    expect(errors(validate('\u0000\u0001\u0002'))).toEqual([
      expect.objectContaining({
        line: 1,
        column: 1,
        message: expect.stringMatching(/^a manifest must be a mapping/)
      })
    ])
  })
})
