/**
 * CHANGELOG.md is the release notes (release.yml hands a version's section to the GitHub release), so it
 * keeps the Keep a Changelog shape that .github/scripts/release-notes.mjs reads.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from '@jest/globals'

const root = fileURLToPath(new URL('../../', import.meta.url))
const changelog = readFileSync(path.join(root, 'CHANGELOG.md'), 'utf8')
const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string }
const REPOSITORY = 'https://github.com/observability-deploy/observability-deploy'

const SEMVER = /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/
const headings = [...changelog.matchAll(/^## (.*)$/gm)].map(m => m[1])
const versions = headings.slice(1).map(heading => {
  const m = /^\[([^\]]+)\] - (\d{4}-\d{2}-\d{2})$/.exec(heading)
  return { heading, version: m?.[1], date: m?.[2] }
})
const links = new Map(
  [...changelog.matchAll(/^\[([^\]]+)\]: (\S+)$/gm)].map(([, name, url]) => [name, url] as const)
)

/** Semantic-version order of released versions (pre-releases are not expected in the changelog). */
const compareVersions = (a: string, b: string) => {
  const [x, y] = [a, b].map(v => v.split(/[.-]/).slice(0, 3).map(Number))
  return x[0] - y[0] || x[1] - y[1] || x[2] - y[2]
}

const scratch: string[] = []
afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true })
})
function releaseNotes(tag: string, text?: string) {
  let file = path.join(root, 'CHANGELOG.md')
  if (text !== undefined) {
    const dir = mkdtempSync(path.join(tmpdir(), 'obsdeploy-changelog-'))
    scratch.push(dir)
    file = path.join(dir, 'CHANGELOG.md')
    writeFileSync(file, text)
  }
  const result = spawnSync(
    process.execPath,
    [path.join(root, '.github/scripts/release-notes.mjs'), tag, file],
    {
      encoding: 'utf8'
    }
  )
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}

describe('CHANGELOG.md', () => {
  it('follows Keep a Changelog: a title, then [Unreleased], then dated versions', () => {
    expect(changelog).toMatch(/^# Changelog\n/)
    expect(changelog).toContain('https://keepachangelog.com/')
    expect(headings[0]).toBe('[Unreleased]')
    expect(versions.length).toBeGreaterThan(0)
    for (const v of versions) {
      expect([v.heading, v.version && SEMVER.test(v.version)]).toEqual([v.heading, true])
      expect([v.heading, Number.isNaN(Date.parse(`${v.date}T00:00:00Z`))]).toEqual([v.heading, false])
    }
  })

  it('lists versions newest first, and their dates never go forward in time down the file', () => {
    for (let i = 1; i < versions.length; i++) {
      expect(compareVersions(versions[i - 1].version!, versions[i].version!)).toBeGreaterThan(0)
      expect(versions[i - 1].date! >= versions[i].date!).toBe(true)
    }
  })

  it('groups changes under the six Keep a Changelog types only', () => {
    const types = [...changelog.matchAll(/^### (.*)$/gm)].map(m => m[1])
    expect(types.length).toBeGreaterThan(0)
    expect(
      types.filter(t => !['Added', 'Changed', 'Deprecated', 'Removed', 'Fixed', 'Security'].includes(t))
    ).toEqual([])
  })

  it('has a link reference for [Unreleased] and every version, comparing each with the one before', () => {
    const released = versions.map(v => v.version!)
    expect(links.get('Unreleased')).toBe(`${REPOSITORY}/compare/v${released[0]}...HEAD`)
    released.forEach((v, i) => {
      const previous = released[i + 1]
      expect(links.get(v)).toBe(
        previous ? `${REPOSITORY}/compare/v${previous}...v${v}` : `${REPOSITORY}/releases/tag/v${v}`
      )
    })
    // The link references end the file: nothing after them but other link references.
    const lastHeading = changelog.lastIndexOf('\n## ')
    const firstLink = changelog.search(/^\[[^\]]+\]: \S+$/m)
    expect(firstLink).toBeGreaterThan(lastHeading)
  })

  it("has a section for package.json's version, with content", () => {
    expect(versions.map(v => v.version)).toContain(version)
    const notes = releaseNotes(`v${version}`)
    expect(notes.status).toBe(0)
    expect(notes.stdout).toMatch(/^### Added$/m)
    expect(notes.stdout.trim().length).toBeGreaterThan(100)
  })
})

describe('release-notes.mjs', () => {
  const sample = [
    '# Changelog',
    '',
    '## [Unreleased]',
    '',
    '## [1.1.0] - 2026-12-01',
    '',
    '### Added',
    '',
    '- New thing.',
    '',
    '## [1.0.0] - 2026-11-30',
    '',
    '### Fixed',
    '',
    '- Old thing.',
    '',
    '[Unreleased]: https://example.com/compare/v1.1.0...HEAD',
    '[1.1.0]: https://example.com/compare/v1.0.0...v1.1.0',
    '[1.0.0]: https://example.com/releases/tag/v1.0.0',
    ''
  ].join('\n')

  it("prints only the tag's section: up to the next version", () => {
    expect(releaseNotes('v1.1.0', sample)).toEqual({
      status: 0,
      stdout: '### Added\n\n- New thing.\n',
      stderr: ''
    })
  })

  it('prints only the last section: up to the link references', () => {
    expect(releaseNotes('v1.0.0', sample).stdout).toBe('### Fixed\n\n- Old thing.\n')
  })

  it('fails, saying what to add, when the tag has no section', () => {
    const notes = releaseNotes('v1.2.0', sample)
    expect(notes.status).toBe(1)
    expect(notes.stdout).toBe('')
    expect(notes.stderr).toContain('has no section "## [1.2.0] - YYYY-MM-DD"')
  })

  it('fails when the section is empty', () => {
    const notes = releaseNotes('v1.1.0', sample.replace('### Added\n\n- New thing.\n\n', ''))
    expect(notes.status).toBe(1)
    expect(notes.stderr).toContain('is empty')
  })

  it('refuses a tag that is not a version', () => {
    expect(releaseNotes('latest', sample).status).toBe(2)
  })
})
