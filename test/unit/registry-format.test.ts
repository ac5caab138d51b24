/**
 * The registry dashboard as written and as read again (src/kinds/registry.ts): the exact text a human reads
 * (one entry per line, ids in order, so two versions diff by entry), how it splits into tiles, what a hand
 * edit the reader must survive looks like, and fingerprints that stay valid from one run (and version) to the
 * next. test/unit/registry.test.ts holds the first cases.
 */
import { scryptSync } from 'node:crypto'
import { describe, expect, it, jest } from '@jest/globals'
import type { ObservabilityApi } from '../../src/api/client.js'
import type { LiveDashboard } from '../../src/api/schemas.js'
import { FingerprintKey } from '../../src/kinds/fingerprint-key.js'
import { Registry, registryTiles, RegistryWriter } from '../../src/kinds/registry.js'

const MINE = 'obsdeploy:shop'
const REGISTRY = [MINE, 'obsdeploy-registry']

const dashboard = (id: string, tags: string[], tiles: Array<Record<string, unknown>>): LiveDashboard =>
  ({ id, name: `d ${id}`, tags, tiles }) as unknown as LiveDashboard
const markdownTile = (name: string, markdown: string) => ({
  name,
  config: { displayType: 'markdown', markdown }
})
const markdownOf = (tile: Record<string, unknown>) => (tile.config as { markdown: string }).markdown
const fenced = (value: unknown) => `intro\n\`\`\`json\n${JSON.stringify(value)}\n\`\`\``

describe('the text of the registry', () => {
  it('says what it is and lists one entry per line, kinds in a fixed order and ids sorted', () => {
    const tiles = registryTiles('shop', {
      Webhook: { w2: { name: 'b' }, w1: { name: 'a', writeOnly: { headers: 'scrypt$x' } } },
      Source: { s1: { name: 'Logs' } }
    })
    expect(tiles).toStrictEqual([
      {
        name: 'obsdeploy registry',
        x: 0,
        y: 0,
        w: 24,
        h: 8,
        config: {
          displayType: 'markdown',
          markdown: [
            '## Managed by obsdeploy: do not edit or delete',
            '',
            'This dashboard records which connections, data sources, webhooks, team members (by email) and ClickStack roles the obsdeploy stack `shop` created or adopted, and fingerprints (never the values) of the write-only settings it sent them. They carry no tags, so this is how the stack knows what it may update and prune.',
            '',
            'Editing it by hand makes the next plan fail; deleting it makes the stack forget what it owns (it then deletes none of them, and a manifest of the same name asks for `adopt: true`).',
            '',
            '```json',
            '{',
            ' "obsdeployRegistry": 1,',
            ' "owned": {',
            '  "Source": {',
            '    "s1": {"name":"Logs"}',
            '  },',
            '  "Webhook": {',
            '    "w1": {"name":"a","writeOnly":{"headers":"scrypt$x"}},',
            '    "w2": {"name":"b"}',
            '  }',
            ' }',
            '}',
            '```'
          ].join('\n')
        }
      }
    ])
  })

  it('a large registry goes on in tiles that say they continue it, each below the markdown limit', () => {
    const big = (i: number) => ({ name: `hook ${'x'.repeat(30_000)} ${i}` })
    const tiles = registryTiles('shop', { Webhook: { w1: big(1), w2: big(2), w3: big(3) } })
    expect(tiles.map(t => t.name)).toStrictEqual([
      'obsdeploy registry (part 1 of 3)',
      'obsdeploy registry (part 2 of 3)',
      'obsdeploy registry (part 3 of 3)'
    ])
    expect(markdownOf(tiles[1]!)).toBe(
      `Continued registry of obsdeploy (do not edit).\n\n\`\`\`json\n{\n "obsdeployRegistry": 1,\n "owned": {\n  "Webhook": {\n    "w2": ${JSON.stringify(big(2))}\n  }\n }\n}\n\`\`\``
    )
    for (const t of tiles) expect(markdownOf(t).length).toBeLessThan(50_000)
    const read = Registry.read([dashboard('reg', REGISTRY, tiles)], 'shop', MINE)
    expect(read.snapshot()).toStrictEqual({ Webhook: { w1: big(1), w2: big(2), w3: big(3) } })
  })

  it("many small entries with the servers' 24-character ids: every part stays below the markdown limit", () => {
    const ids = Array.from({ length: 3000 }, (_, i) => i.toString(16).padStart(24, '0'))
    const owned = { Source: Object.fromEntries(ids.map(id => [id, { name: 'a' }])) }
    const tiles = registryTiles('shop', owned)
    expect(tiles.length).toBeGreaterThan(1)
    for (const t of tiles) expect(markdownOf(t).length).toBeLessThan(50_000)
    expect(Registry.read([dashboard('reg', REGISTRY, tiles)], 'shop', MINE).snapshot()).toStrictEqual(owned)
  })

  it('one entry larger than a part still goes on the first tile, with no empty part before it', () => {
    const huge = { name: 'x'.repeat(45_000) }
    const tiles = registryTiles('shop', { Source: { s1: huge } })
    expect(tiles.map(t => t.name)).toStrictEqual(['obsdeploy registry'])
    expect(Registry.read([dashboard('reg', REGISTRY, tiles)], 'shop', MINE).snapshot()).toStrictEqual({
      Source: { s1: huge }
    })
  })
})

describe('reading a registry a hand has touched', () => {
  const read = (...dashboards: LiveDashboard[]) => Registry.read(dashboards, 'shop', MINE)

  it('a markdown tile with a code block that is not JSON is a note, not a registry part', () => {
    const r = read(
      dashboard('reg', REGISTRY, [
        markdownTile('note', 'Ask the platform team:\n```sql\nSELECT 1\n```'),
        ...registryTiles('shop', { Webhook: { w1: { name: 'a' } } })
      ])
    )
    expect(r.problem).toBeUndefined()
    expect(r.snapshot()).toStrictEqual({ Webhook: { w1: { name: 'a' } } })
  })

  it('a tile without a config, or with an unclosed JSON block, is no registry part', () => {
    expect(
      read(
        dashboard('reg', REGISTRY, [
          { name: 'bare' },
          ...registryTiles('shop', { Webhook: { w1: { name: 'a' } } })
        ])
      ).snapshot()
    ).toStrictEqual({ Webhook: { w1: { name: 'a' } } })
    expect(
      read(dashboard('reg', REGISTRY, [markdownTile('t', '```json\n{"obsdeployRegistry": 1, "owned": {}}')]))
        .problem
    ).toContain('(it has no registry tile)')
  })

  it('owned that is not a mapping is refused; two unreadable parts give both reasons', () => {
    expect(
      read(dashboard('reg', REGISTRY, [markdownTile('t', fenced({ obsdeployRegistry: 1, owned: 5 }))]))
        .problem
    ).toContain('(tile "t" is not a registry part of version 1)')
    expect(
      read(
        dashboard('r1', REGISTRY, [markdownTile('a', fenced({ obsdeployRegistry: 2, owned: {} }))]),
        dashboard('r2', REGISTRY, [markdownTile('b', 'words')])
      ).problem
    ).toContain(
      // Each reason with the dashboard it is about.
      'the registry dashboard "d r1" (r1) cannot be read (tile "a" is not a registry part of version 1); the registry dashboard "d r2" (r2) cannot be read (it has no registry tile): '
    )
  })

  it('a kind or an entry set to null is refused with the reason, not read as JSON that is invalid', () => {
    const problem = (owned: unknown) =>
      read(dashboard('reg', REGISTRY, [markdownTile('t', fenced({ obsdeployRegistry: 1, owned }))])).problem
    expect(problem({ Webhook: null })).toBe(
      'the registry dashboard "d reg" (reg) cannot be read (tile "t": Webhook is not a mapping): restore its tiles as obsdeploy wrote them. Until then no connection, source, webhook, team member or role is deleted'
    )
    expect(problem({ Connection: { c1: null } })).toContain('(tile "t": Connection c1 has no name)')
  })

  it('JSON that does not parse: the parser’s own words', () => {
    const r = read(dashboard('reg', REGISTRY, [markdownTile('t', '```json\n{"a":\n```')]))
    let words = ''
    try {
      JSON.parse('{"a":')
    } catch (e) {
      words = (e as Error).message
    }
    expect(r.problem).toContain(`(tile "t" holds no valid JSON: ${words})`)
  })

  it("another stack's registry claims nothing when it cannot be read or names no stack", () => {
    const r = read(
      dashboard(
        'broken',
        ['obsdeploy:billing', 'obsdeploy-registry'],
        [markdownTile('t', '```json\n{\n```')]
      ),
      dashboard(
        'untagged',
        ['obsdeploy-registry', 'team'],
        registryTiles('x', { Webhook: { w5: { name: 'mail' } } })
      ),
      dashboard('mine', REGISTRY, registryTiles('shop', { Webhook: { w1: { name: 'a' } } }))
    )
    expect(r.problem).toBeUndefined()
    expect(r.ownerOf('Webhook', 'w5')).toBeUndefined()
    // Its own registry is no other stack's claim.
    expect(r.ownerOf('Webhook', 'w1')).toBeUndefined()
    expect(r.owns('Webhook', 'w1')).toBe(true)
  })
})

describe('unkeyed fingerprints from an earlier version', () => {
  // Written by versions before the key (fingerprint-key.ts): still recognised, so a value that matches is
  // renewed once instead of planned as changed. The text a value is hashed from may never change.
  const KEY = FingerprintKey.fromSecret('any credential')
  const matchesFingerprint = (fp: string, value: unknown) => KEY.compare(fp, value) === 'renew'
  const STRING = 'scrypt$4096$8$1$cL_RT9hEECCyVibW5fPhEg$0T1GKUCM1cnNq4arSXIFZxF1SK9YNrS4fYUNMajtqC4'
  const MAPPING = 'scrypt$4096$8$1$2sCFUZVroTatbLPcQzghuA$MRZ0tmx0vUcVwYwwqnjR4bOCN9q06pxCER6p3fAR55w'
  const NULL = 'scrypt$4096$8$1$4n7yBgYCTL7LJhdfQuIt3Q$id_8w9EMOWi7YLmgRCVQelBDpR8bHqgQe2efkZ68bFA'

  it('still match the values they were made of, and only those', () => {
    expect(matchesFingerprint(STRING, 's3cret')).toBe(true)
    expect(matchesFingerprint(STRING, ['s3cret'])).toBe(false)
    expect(matchesFingerprint(MAPPING, { on: true, nested: { a: [1, null], b: 2 }, token: 't' })).toBe(true)
    expect(matchesFingerprint(MAPPING, { on: true, nested: { a: [1, null], b: 3 }, token: 't' })).toBe(false)
    expect(matchesFingerprint(NULL, null)).toBe(true)
    expect(matchesFingerprint(NULL, 'null')).toBe(false)
  })

  it('a hand-edited one with settings scrypt refuses, a huge cost or no hash matches nothing', () => {
    const [, , , , salt, hash] = STRING.split('$')
    expect(matchesFingerprint(`scrypt$32768$8$1$${salt}$${hash}`, 's3cret')).toBe(false)
    expect(matchesFingerprint(`scrypt$4096$100000$1$${salt}$${hash}`, 's3cret')).toBe(false)
    expect(matchesFingerprint(`scrypt$4096$8$1000000$${salt}$${hash}`, 's3cret')).toBe(false)
    // 2^14 x 8 x 2^9: within scrypt's memory limit but thousands of times the cost written; answered at once.
    expect(matchesFingerprint(`scrypt$16384$8$512$${salt}$${hash}`, 's3cret')).toBe(false)
    // "-" decodes to no bytes: an empty hash would equal the empty hash of any value.
    expect(matchesFingerprint(`scrypt$4096$8$1$${salt}$-`, 'anything')).toBe(false)
  })

  it('a hand-written one at the cost limit (N x r x p = 2^20) is still computed and matches its value', () => {
    const salt = Buffer.from('0123456789abcdef')
    // Strings are hashed as "s:" + the text (the pinned fingerprints above fix that form).
    const hash = scryptSync('s:s3cret', salt, 32, { N: 4096, r: 8, p: 32 })
    const fp = `scrypt$4096$8$32$${salt.toString('base64url')}$${hash.toString('base64url')}`
    expect(matchesFingerprint(fp, 's3cret')).toBe(true)
    expect(matchesFingerprint(fp, 'other')).toBe(false)
  })
})

describe('the registry written in managed mode', () => {
  it('sends the same dashboard: its fields are all in the managed request schema', async () => {
    const bodies: unknown[] = []
    const api = {
      createDashboard: jest.fn(async (body: unknown) => {
        bodies.push(body)
        return { id: 'reg' }
      })
    } as unknown as ObservabilityApi
    for (const mode of ['managed', 'self-hosted'] as const)
      await new RegistryWriter(Registry.empty('shop', MINE), api, mode).record('Source', 's1', {
        name: 'Logs'
      })
    expect(bodies[0]).toStrictEqual(bodies[1])
    expect(bodies[0]).toStrictEqual({
      name: 'obsdeploy registry (stack shop)',
      tags: REGISTRY,
      tiles: registryTiles('shop', { Source: { s1: { name: 'Logs' } } })
    })
  })
})
