/**
 * Files: finding manifests with globs (braces, comma-separated lists, `!exclusions`), refusing files that
 * are too large or not text, rules across files, and the examples shipped in the repository.
 */
import { mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync, mkdirSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals'
import type { Diagnostic } from '../../src/diagnostics.js'
import { MAX_MANIFEST_BYTES, splitPatterns } from '../../src/manifest/files.js'
import { loadManifests, type ManifestSet } from '../../src/manifest/load.js'

const REPO = fileURLToPath(new URL('../..', import.meta.url))
const FIXTURES = 'test/fixtures/manifests'

const place = (d: Diagnostic) => ({
  file: d.file,
  line: d.line,
  column: d.column,
  field: d.field,
  message: d.message
})
const errors = (set: ManifestSet) => set.diagnostics.filter(d => d.severity === 'error').map(place)

const DASHBOARD = (name: string) => `kind: Dashboard\nname: ${name}\n`

let ws: string
const write = (rel: string, content: string | Buffer) => {
  mkdirSync(path.dirname(path.join(ws, rel)), { recursive: true })
  writeFileSync(path.join(ws, rel), content)
}
const load = (patterns: string[] | string, mode: 'self-hosted' | 'managed' = 'self-hosted') =>
  loadManifests({
    patterns: typeof patterns === 'string' ? splitPatterns(patterns) : patterns,
    cwd: ws,
    mode
  })

beforeAll(() => {
  ws = mkdtempSync(path.join(tmpdir(), 'obsdeploy-files-'))
  write('observability/checkout.yaml', DASHBOARD('Checkout'))
  write('observability/platform.yml', DASHBOARD('Platform'))
  write('observability/team/search.yaml', DASHBOARD('Search'))
  write('observability/drafts/wip.yaml', DASHBOARD('Work in progress'))
  write('observability/README.md', '# not a manifest\n')
  write('observability/.hidden.yaml', DASHBOARD('Hidden'))
})
afterAll(() => {
  rmSync(ws, { recursive: true, force: true })
})

describe('finding manifest files', () => {
  it('matches both extensions with {yaml,yml} braces, sorted, with / separators', async () => {
    const set = await load(['observability/**/*.{yaml,yml}'])
    expect(set.files).toEqual([
      'observability/checkout.yaml',
      'observability/drafts/wip.yaml',
      'observability/platform.yml',
      'observability/team/search.yaml'
    ])
    expect(set.diagnostics).toEqual([])
    expect(set.specs.Dashboard.map(d => d.spec.name).sort()).toEqual([
      'Checkout',
      'Platform',
      'Search',
      'Work in progress'
    ])
  })

  it('splits a comma-separated list but keeps commas inside braces', () => {
    expect(splitPatterns('observability/**/*.{yaml,yml}, extra.yml,!observability/drafts/**')).toEqual([
      'observability/**/*.{yaml,yml}',
      'extra.yml',
      '!observability/drafts/**'
    ])
  })

  it('splits on newlines and drops blank entries and surrounding spaces', () => {
    expect(splitPatterns('  a/*.yaml  \n\n b/*.yml\n')).toEqual(['a/*.yaml', 'b/*.yml'])
  })

  it('loads the files of a comma-separated list', async () => {
    const set = await load('observability/checkout.yaml, observability/platform.yml')
    expect(set.files).toEqual(['observability/checkout.yaml', 'observability/platform.yml'])
  })

  it('leaves out files matched by a !exclusion', async () => {
    const set = await load('observability/**/*.{yaml,yml}\n!observability/drafts/**')
    expect(set.files).toEqual([
      'observability/checkout.yaml',
      'observability/platform.yml',
      'observability/team/search.yaml'
    ])
    expect(set.specs.Dashboard.map(d => d.spec.name)).not.toContain('Work in progress')
  })

  it('loads a file matched by two patterns once', async () => {
    const set = await load(['observability/*.yaml', 'observability/checkout.yaml'])
    expect(set.files).toEqual(['observability/checkout.yaml'])
    expect(set.diagnostics).toEqual([])
  })

  it('refuses to run on no files, naming the patterns and the directory', async () => {
    const set = await load(['nothing/**/*.yaml', 'x.yml'])
    expect(set.files).toEqual([])
    expect(errors(set)).toEqual([
      {
        file: undefined,
        line: undefined,
        column: undefined,
        field: undefined,
        message: `no manifest files matched 'nothing/**/*.yaml', 'x.yml' (relative to ${ws})`
      }
    ])
  })

  it('refuses when exclusions leave nothing', async () => {
    const set = await load(['observability/checkout.yaml', '!observability/*.yaml'])
    expect(errors(set).map(e => e.message)).toEqual([
      `no manifest files matched 'observability/checkout.yaml', '!observability/*.yaml' (relative to ${ws})`
    ])
  })
})

describe('files that are not manifests', () => {
  it('refuses a file over 1 MiB with its size, without reading it', async () => {
    // A sparse 3 GiB file: reading it would fail with a different error (and take a while).
    write('big/huge.yaml', '')
    truncateSync(path.join(ws, 'big/huge.yaml'), 3 * 1024 ** 3)
    write('big/ok.yaml', DASHBOARD('Fine'))
    const set = await load(['big/*.yaml'])
    expect(errors(set)).toEqual([
      {
        file: 'big/huge.yaml',
        line: 1,
        column: 1,
        field: undefined,
        message: `file is ${3 * 1024 ** 3} bytes; manifests are limited to ${MAX_MANIFEST_BYTES} bytes (split it into several files)`
      }
    ])
    expect(set.specs.Dashboard.map(d => d.spec.name)).toEqual(['Fine'])
  })

  it('refuses one byte over 1 MiB and accepts exactly 1 MiB', async () => {
    const padded = (size: number) => {
      const head = DASHBOARD('Padded')
      return `${head}#${'x'.repeat(size - head.length - 2)}\n`
    }
    write('limit/over.yaml', padded(MAX_MANIFEST_BYTES + 1))
    write('limit/exact.yaml', padded(MAX_MANIFEST_BYTES).replace('Padded', 'Exact'))
    const set = await load(['limit/*.yaml'])
    expect(errors(set)).toEqual([
      expect.objectContaining({
        file: 'limit/over.yaml',
        message: `file is ${MAX_MANIFEST_BYTES + 1} bytes; manifests are limited to ${MAX_MANIFEST_BYTES} bytes (split it into several files)`
      })
    ])
    expect(set.specs.Dashboard.map(d => d.spec.name)).toEqual(['Exact'])
  })

  it('refuses a file with NUL bytes as binary', async () => {
    write('bin/nul.yaml', Buffer.from('kind: Dashboard\nname: a\u0000b\n'))
    expect(errors(await load(['bin/nul.yaml']))).toEqual([
      {
        file: 'bin/nul.yaml',
        line: 1,
        column: 1,
        field: undefined,
        message: 'is not a UTF-8 text file (binary content or control characters)'
      }
    ])
  })

  it('refuses a file that is not valid UTF-8 as binary', async () => {
    write('bin/latin1.yaml', Buffer.from([...Buffer.from('kind: Dashboard\nname: caf'), 0xe9, 0x0a]))
    write('bin/junk.yaml', Buffer.from([0xff, 0xfe, 0xfd, 0x80, 0x81, 0x00, 0x01]))
    expect(errors(await load(['bin/latin1.yaml', 'bin/junk.yaml']))).toEqual([
      expect.objectContaining({
        file: 'bin/junk.yaml',
        line: 1,
        message: 'is not a UTF-8 text file (binary content or control characters)'
      }),
      expect.objectContaining({
        file: 'bin/latin1.yaml',
        line: 1,
        message: 'is not a UTF-8 text file (binary content or control characters)'
      })
    ])
  })

  it('accepts a UTF-8 byte order mark and keeps line 1 as line 1', async () => {
    write('bom/bom.yaml', '\ufeffkind: Dashboard\nname: 5\n')
    expect(errors(await load(['bom/bom.yaml']))).toEqual([
      {
        file: 'bom/bom.yaml',
        line: 2,
        column: 7,
        field: 'name',
        message: 'must be a string, got 5: quote it to keep it as text, e.g. name: "5"'
      }
    ])
  })

  it('keeps validating the other files when one is refused', async () => {
    write('mixed/a-binary.yaml', Buffer.from([0x00, 0x01]))
    write('mixed/b-good.yaml', DASHBOARD('Good'))
    const set = await load(['mixed/*.yaml'])
    expect(errors(set).map(e => e.file)).toEqual(['mixed/a-binary.yaml'])
    expect(set.specs.Dashboard.map(d => d.spec.name)).toEqual(['Good'])
  })
})

describe('symbolic links: nothing outside the workspace is read', () => {
  const SECRET = 'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY'
  let outside: string
  let repo: string
  beforeAll(() => {
    outside = mkdtempSync(path.join(tmpdir(), 'obsdeploy-outside-'))
    writeFileSync(path.join(outside, 'credentials'), `[default]\n${SECRET}\n`)
    writeFileSync(path.join(outside, 'passwd.yaml'), 'root:x:0:0:root:/root:/bin/bash\n')
    mkdirSync(path.join(outside, 'deep', 'er'), { recursive: true })
    writeFileSync(path.join(outside, 'deep', 'er', 'leak.yaml'), `${SECRET}\n`)
    repo = mkdtempSync(path.join(tmpdir(), 'obsdeploy-links-'))
    mkdirSync(path.join(repo, 'observability', 'shared'), { recursive: true })
    writeFileSync(path.join(repo, 'observability', 'shared', 'real.yaml'), DASHBOARD('Real'))
    symlinkSync(path.join(outside, 'credentials'), path.join(repo, 'observability', 'creds.yaml'))
    symlinkSync(path.join(outside, 'passwd.yaml'), path.join(repo, 'observability', 'passwd.yaml'))
    symlinkSync(outside, path.join(repo, 'observability', 'elsewhere'))
    // Links that stay inside the workspace are followed as before.
    symlinkSync('shared/real.yaml', path.join(repo, 'observability', 'alias.yaml'))
    symlinkSync('shared', path.join(repo, 'observability', 'linked'))
    // A link the patterns do not ask for is nobody's business.
    symlinkSync(path.join(outside, 'credentials'), path.join(repo, 'observability', 'notes.txt'))
  })
  afterAll(() => {
    rmSync(outside, { recursive: true, force: true })
    rmSync(repo, { recursive: true, force: true })
  })
  const loadRepo = (patterns: string[], cwd = repo) => loadManifests({ patterns, cwd, mode: 'self-hosted' })
  const refusals = (set: ManifestSet) => errors(set).filter(e => /outside the workspace/.test(e.message))

  it('refuses links to files and folders outside, naming the link and never the content', async () => {
    const set = await loadRepo(['observability/**/*.yaml'])
    expect(refusals(set)).toEqual([
      {
        file: 'observability/creds.yaml',
        line: 1,
        column: 1,
        field: undefined,
        message: expect.stringMatching(/^is a symbolic link to a file outside the workspace: refused/)
      },
      {
        file: 'observability/elsewhere',
        line: 1,
        column: 1,
        field: undefined,
        message: expect.stringMatching(/^is a symbolic link to a folder outside the workspace: not searched/)
      },
      {
        file: 'observability/passwd.yaml',
        line: 1,
        column: 1,
        field: undefined,
        message: expect.stringMatching(/^is a symbolic link to a file outside the workspace: refused/)
      }
    ])
    const text = JSON.stringify(set)
    for (const leaked of ['wJalrXUtnFEMI', 'aws_secret', 'root:x', outside])
      expect(text).not.toContain(leaked)
    // The links inside are followed.
    expect(set.files).toEqual([
      'observability/alias.yaml',
      'observability/linked/real.yaml',
      'observability/shared/real.yaml'
    ])
  })

  it('reads named files by their real path, without the search: links out refused, links within followed', async () => {
    // A stack's share of the files is read without searching again: the reader checks each file itself.
    const set = await loadManifests({
      patterns: [],
      files: [
        'observability/creds.yaml',
        'observability/elsewhere/passwd.yaml',
        'observability/alias.yaml',
        'observability/linked/real.yaml',
        'observability/shared/real.yaml'
      ],
      cwd: repo,
      mode: 'self-hosted'
    })
    expect(errors(set).map(e => [e.file, e.message.slice(0, 60)])).toEqual([
      ['observability/creds.yaml', 'is reached through a symbolic link that leads outside the wo'],
      ['observability/elsewhere/passwd.yaml', 'is reached through a symbolic link that leads outside the wo'],
      // The three inside are one dashboard, read three times: so named twice too many.
      ['observability/linked/real.yaml', 'duplicate dashboard name "Real" (also at observability/alias'],
      ['observability/shared/real.yaml', 'duplicate dashboard name "Real" (also at observability/alias']
    ])
    expect(JSON.stringify(set)).not.toContain('root:x')
    expect(JSON.stringify(set)).not.toContain(SECRET)
  })

  it('an excluded link is not reported', async () => {
    const set = await loadRepo([
      'observability/shared/*.yaml',
      'observability/*.yaml',
      '!observability/creds.yaml',
      '!observability/passwd.yaml'
    ])
    // Nor is the folder link: `observability/*.yaml` never looks inside a folder.
    expect(refusals(set)).toEqual([])
    expect(set.files).toEqual(['observability/alias.yaml', 'observability/shared/real.yaml'])
  })

  it('refuses a file reached through a linked folder, without opening it', async () => {
    const set = await loadRepo(['observability/elsewhere/passwd.yaml'])
    expect(errors(set)).toEqual([
      expect.objectContaining({
        file: 'observability/elsewhere/passwd.yaml',
        message: expect.stringMatching(
          /^is reached through a symbolic link that leads outside the workspace: refused/
        )
      })
    ])
    expect(JSON.stringify(set)).not.toContain('root:x')
  })

  it('an absolute pattern gets the same refusals, named relative to the working directory', async () => {
    const set = await loadRepo([path.join(repo, 'observability', '**', '*.yaml')])
    expect(refusals(set).map(e => e.file)).toEqual([
      'observability/creds.yaml',
      'observability/elsewhere',
      'observability/passwd.yaml'
    ])
  })

  it('refuses a pattern or path outside the workspace, naming the input and the pattern, and reads nothing', async () => {
    writeFileSync(path.join(outside, 'named.yaml'), DASHBOARD('Named'))
    const cwd = path.join(repo, 'observability', 'shared')
    const relative = `${path.relative(cwd, outside)}/*.yaml`
    const patterns = [
      relative,
      path.join(outside, 'named.yaml'),
      '/etc/passwd',
      'observability/**/../../../etc/*.yaml',
      '{../x,y}/*.yaml'
    ]
    for (const pattern of patterns) {
      const set = await loadRepo([pattern, 'real.yaml'], cwd)
      expect(errors(set)).toEqual([
        {
          file: undefined,
          line: undefined,
          column: undefined,
          field: undefined,
          message: `manifests: '${pattern}' reaches outside the workspace (${cwd}): refused, because a pattern in a pull request could make the run read and show any file on the runner. Keep the manifests inside the repository, and name them relative to it`
        }
      ])
      // The other patterns are still searched, and nothing outside is read.
      expect(set.files).toEqual(['real.yaml'])
      expect(JSON.stringify(set)).not.toMatch(/Named|root:x/)
    }
  })

  it('a pattern that climbs out and back in, or an absolute one inside, is fine', async () => {
    const set = await loadRepo([
      'observability/../observability/shared/*.yaml',
      path.join(repo, 'observability', 'shared', 'real.yaml')
    ])
    expect(errors(set)).toEqual([])
    expect(set.specs.Dashboard.map(d => d.spec.name)).toEqual(['Real'])
  })

  it('never walks a link to the root of the file system', async () => {
    const walk = mkdtempSync(path.join(tmpdir(), 'obsdeploy-root-link-'))
    try {
      mkdirSync(path.join(walk, 'observability'))
      symlinkSync('/', path.join(walk, 'observability', 'everything'))
      const set = await loadRepo(['observability/**/*.yaml'], walk)
      expect(set.files).toEqual([])
      expect(errors(set).map(e => e.file)).toEqual(['observability/everything'])
    } finally {
      rmSync(walk, { recursive: true, force: true })
    }
  })
})

describe('rules across files', () => {
  it('reports a dashboard name used in two files at the second, naming the file and line of the first', async () => {
    const set = await loadManifests({
      patterns: [`${FIXTURES}/duplicates/*.yaml`],
      cwd: REPO,
      mode: 'self-hosted'
    })
    expect(errors(set)).toEqual([
      {
        file: `${FIXTURES}/duplicates/b-team.yaml`,
        line: 3,
        column: 7,
        field: 'name',
        message: `duplicate dashboard name "Checkout" (also at ${FIXTURES}/duplicates/a-checkout.yaml:2): same-named dashboards need an \`id:\` pin each (the id of its live dashboard) to tell them apart; pin every one of them, or rename one`
      },
      {
        file: `${FIXTURES}/duplicates/b-team.yaml`,
        line: 7,
        column: 7,
        field: 'name',
        message: `duplicate alert name "Checkout errors" (also at ${FIXTURES}/duplicates/a-checkout.yaml:15)`
      }
    ])
  })

  it('resolves an alert against a dashboard in another file', async () => {
    write(
      'split/dashboard.yaml',
      'kind: Dashboard\nname: D\ntiles: [{ name: T, x: 0, y: 0, w: 6, h: 3, series: [{ type: time, source: Logs, aggFn: count }] }]\n'
    )
    write(
      'split/alert.yaml',
      'kind: Alert\nname: A\ndashboard: D\ntile: T\nthreshold: 1\nthresholdType: above\ninterval: 5m\nchannel: { type: webhook, webhook: ops }\n'
    )
    const good = await load(['split/*.yaml'])
    expect(good.diagnostics).toEqual([])
    expect(good.specs.Alert).toHaveLength(1)
    const alone = await load(['split/alert.yaml'])
    expect(errors(alone)).toEqual([
      {
        file: 'split/alert.yaml',
        line: 3,
        column: 12,
        field: 'dashboard',
        message: 'no dashboard named "D" in the manifests'
      }
    ])
  })

  it('allows one ServiceSettings across all files, reporting the second file', async () => {
    write('services/a.yaml', 'kind: ServiceSettings\nname: a\n')
    write('services/b.yaml', '# second\nkind: ServiceSettings\nname: b\n')
    expect(errors(await load(['services/*.yaml'], 'managed'))).toEqual([
      {
        file: 'services/b.yaml',
        line: 2,
        column: 7,
        field: 'kind',
        message: 'only one ServiceSettings is allowed (the first is at services/a.yaml:1)'
      }
    ])
  })
})

describe('the examples', () => {
  const examples = (pattern: string, mode: 'self-hosted' | 'managed') =>
    loadManifests({ patterns: [pattern], cwd: REPO, mode })

  it('examples/observability validates clean in self-hosted mode', async () => {
    const set = await examples('examples/observability/**/*.yaml', 'self-hosted')
    expect(set.diagnostics).toEqual([])
    expect(set.files).toEqual([
      'examples/observability/checkout.yaml',
      'examples/observability/latency.yaml',
      'examples/observability/platform.yaml'
    ])
    expect(set.specs.Dashboard.map(d => d.spec.name)).toEqual(['Checkout', 'Latency', 'Platform overview'])
    expect(set.specs.Alert.map(a => a.spec.name)).toEqual([
      'Checkout errors',
      'Checkout traffic out of range',
      'Error rate high',
      'Platform warnings'
    ])
  })

  it('examples/managed validates clean in managed mode, and is refused in self-hosted mode', async () => {
    const managed = await examples('examples/managed/**/*.yaml', 'managed')
    expect(managed.diagnostics).toEqual([])
    expect(managed.specs.ServiceSettings.map(s => s.spec.name)).toEqual(['analytics prod'])
    const selfHosted = await examples('examples/managed/**/*.yaml', 'self-hosted')
    expect(errors(selfHosted)).toEqual([
      expect.objectContaining({ file: 'examples/managed/service.yaml', line: 3, field: 'kind' })
    ])
  })

  it('examples/broken shows each error it is meant to show, at its place', async () => {
    const set = await examples('examples/broken/**/*.yaml', 'self-hosted')
    const file = 'examples/broken/checkout-broken.yaml'
    expect(errors(set)).toEqual([
      { file, line: 8, column: 8, field: 'tiles[0].w', message: 'must be between 1 and 24' },
      {
        file,
        line: 14,
        column: 29,
        field: 'tiles[0].series[0].where',
        message: 'Lucene syntax error at column 13 of the expression: unexpected end of input'
      },
      {
        file,
        line: 15,
        column: 9,
        field: 'tiles[0].series[0].grupBy',
        message: 'unknown field "grupBy" (did you mean "groupBy"?)'
      },
      {
        file,
        line: 20,
        column: 7,
        field: 'tile',
        message: 'dashboard "Checkout (broken)" has no tile named "Eror" (did you mean "Errors"?)'
      },
      {
        file,
        line: 22,
        column: 16,
        field: 'thresholdMax',
        message: 'is required when thresholdType is between'
      },
      {
        file,
        line: 23,
        column: 11,
        field: 'interval',
        message: 'must be one of 1m, 5m, 15m, 30m, 1h, 6h, 12h, 1d, got "2m" (did you mean "1m"?)'
      }
    ])
    expect(set.diagnostics.filter(d => d.severity !== 'error')).toEqual([])
  })
})
