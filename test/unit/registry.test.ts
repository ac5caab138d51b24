/**
 * The registry dashboard of the kinds without tags (src/kinds/registry.ts): what a stack owns as read back
 * from its tiles (and what another stack's registry claims), why a hand-edited one is refused (the
 * fingerprints of write-only values: fingerprint-key.test.ts), and the dashboard the apply writes: created once (also after a lost
 * response), updated after, changes that arrive together written together, a failed write seen by each caller.
 */
import { describe, expect, it, jest } from '@jest/globals'
import type { ObservabilityApi } from '../../src/api/client.js'
import type { LiveDashboard } from '../../src/api/schemas.js'
import { Registry, registryTiles, RegistryWriter } from '../../src/kinds/registry.js'

const MINE = 'obsdeploy:shop'

const dashboard = (id: string, tags: string[], tiles: Array<Record<string, unknown>>): LiveDashboard =>
  ({ id, name: `d ${id}`, tags, tiles }) as unknown as LiveDashboard
const markdownTile = (name: string, markdown: string) => ({
  name,
  config: { displayType: 'markdown', markdown }
})
const fenced = (value: unknown) => `intro\n\`\`\`json\n${JSON.stringify(value)}\n\`\`\``

describe('reading a registry', () => {
  it('what its tiles say this stack owns, read back as written, over several tiles when it is large', () => {
    const owned = {
      Webhook: Object.fromEntries(
        Array.from({ length: 400 }, (_, i) => [
          `w${String(i).padStart(3, '0')}`,
          { name: `hook ${'x'.repeat(120)} ${i}` }
        ])
      ),
      Source: { s1: { name: 'Logs', writeOnly: { password: 'scrypt$1' } } }
    }
    const tiles = registryTiles('shop', owned)
    expect(tiles.map(t => t.name)).toStrictEqual([
      'obsdeploy registry (part 1 of 2)',
      'obsdeploy registry (part 2 of 2)'
    ])
    expect(tiles.map(t => [t.x, t.y, t.w, t.h])).toStrictEqual([
      [0, 0, 24, 8],
      [0, 8, 24, 8]
    ])
    for (const t of tiles) expect((t.config as { markdown: string }).markdown.length).toBeLessThan(50_000)
    expect((tiles[0]!.config as { markdown: string }).markdown).toMatch(
      /^## Managed by obsdeploy: do not edit or delete/
    )
    expect((tiles[1]!.config as { markdown: string }).markdown).toMatch(/^Continued registry of obsdeploy/)
    const r = Registry.read([dashboard('reg', [MINE, 'obsdeploy-registry'], tiles)], 'shop', MINE)
    expect(r.problem).toBeUndefined()
    expect(r.dashboard?.id).toBe('reg')
    expect(r.snapshot()).toStrictEqual(owned)
    expect(r.owns('Webhook', 'w007')).toBe(true)
    expect(r.owns('Source', 'w007')).toBe(false)
    expect(r.entry('Source', 's1')).toStrictEqual({ name: 'Logs', writeOnly: { password: 'scrypt$1' } })
  })

  it('one small registry is one tile; an empty one has none of the kinds', () => {
    const [tile, ...rest] = registryTiles('shop', {})
    expect(rest).toStrictEqual([])
    expect(tile!.name).toBe('obsdeploy registry')
    const r = Registry.read([dashboard('reg', [MINE, 'obsdeploy-registry'], [tile!])], 'shop', MINE)
    expect(r.problem).toBeUndefined()
    expect(r.snapshot()).toStrictEqual({})
  })

  it("another stack's registry: the ids it claims, by its tag; a dashboard that is no registry claims nothing", () => {
    const theirs = registryTiles('billing', { Webhook: { w9: { name: 'pager' } } })
    const r = Registry.read(
      [
        dashboard('a', ['obsdeploy:billing', 'obsdeploy-registry'], theirs),
        dashboard('b', ['obsdeploy:plain'], registryTiles('plain', { Source: { s1: { name: 'x' } } }))
      ],
      'shop',
      MINE
    )
    expect(r.dashboard).toBeUndefined()
    expect(r.ownerOf('Webhook', 'w9')).toBe('obsdeploy:billing')
    expect(r.ownerOf('Source', 'w9')).toBeUndefined()
    expect(r.ownerOf('Source', 's1')).toBeUndefined()
    expect(r.owns('Webhook', 'w9')).toBe(false)
  })

  it('a registry edited by hand is a problem that says why, and keeps every record from being pruned', () => {
    const problem = (...tiles: Array<Record<string, unknown>>) =>
      Registry.read([dashboard('reg', [MINE, 'obsdeploy-registry'], tiles)], 'shop', MINE).problem
    const start = 'the registry dashboard "d reg" (reg) cannot be read ('
    const end =
      '): restore its tiles as obsdeploy wrote them. Until then no connection, source, webhook, team member or role is deleted'
    expect(problem(markdownTile('t', 'just words'))).toBe(`${start}it has no registry tile${end}`)
    expect(problem(markdownTile('t', fenced({ obsdeployRegistry: 2, owned: {} })))).toBe(
      `${start}tile "t" is not a registry part of version 1${end}`
    )
    expect(problem(markdownTile('t', fenced({ obsdeployRegistry: 1, owned: null })))).toContain(
      'is not a registry part of version 1'
    )
    expect(problem(markdownTile('t', fenced({ obsdeployRegistry: 1, owned: { Webhook: 3 } })))).toBe(
      `${start}tile "t": Webhook is not a mapping${end}`
    )
    expect(problem(markdownTile('t', fenced({ obsdeployRegistry: 1, owned: { Source: { s1: {} } } })))).toBe(
      `${start}tile "t": Source s1 has no name${end}`
    )
    expect(problem(markdownTile('t', '```json\n{oops\n```'))).toMatch(
      /^the registry dashboard .*tile "t" holds no valid JSON: /
    )
  })

  it('two registry dashboards of the stack are merged; tiles without markdown are skipped', () => {
    const r = Registry.read(
      [
        dashboard(
          'r2',
          [MINE, 'obsdeploy-registry'],
          [markdownTile('a', fenced({ obsdeployRegistry: 1, owned: { Webhook: { w2: { name: 'b' } } } }))]
        ),
        dashboard(
          'r1',
          [MINE, 'obsdeploy-registry'],
          [
            { name: 'chart', config: { displayType: 'line' } },
            markdownTile('a', fenced({ obsdeployRegistry: 1, owned: { Webhook: { w1: { name: 'a' } } } }))
          ]
        )
      ],
      'shop',
      MINE
    )
    expect(r.problem).toBeUndefined()
    expect(r.dashboard?.id).toBe('r1')
    expect(r.snapshot()).toStrictEqual({ Webhook: { w1: { name: 'a' }, w2: { name: 'b' } } })
  })

  it('keepOnly forgets the ids that no longer exist, of that kind only; the snapshot is a copy', () => {
    const tiles = registryTiles('shop', {
      Webhook: { w1: { name: 'a' }, w2: { name: 'b' } },
      Source: { s1: { name: 'c' } }
    })
    const r = Registry.read([dashboard('reg', [MINE, 'obsdeploy-registry'], tiles)], 'shop', MINE)
    r.keepOnly('Webhook', new Set(['w2']))
    r.keepOnly('Connection', new Set())
    const snap = r.snapshot()
    expect(snap).toStrictEqual({ Webhook: { w2: { name: 'b' } }, Source: { s1: { name: 'c' } } })
    snap.Webhook!.w9 = { name: 'x' }
    expect(r.owns('Webhook', 'w9')).toBe(false)
    expect(Registry.empty('shop', MINE).snapshot()).toStrictEqual({})
  })
})

describe('writing the registry during an apply', () => {
  function api() {
    const calls: Array<[string, ...unknown[]]> = []
    const a = {
      createDashboard: jest.fn(async (body: unknown) => {
        calls.push(['create', body])
        return { id: 'reg-new' }
      }),
      updateDashboard: jest.fn(async (id: string, body: unknown) => {
        calls.push(['update', id, body])
        return {}
      }),
      listDashboards: jest.fn(async (): Promise<LiveDashboard[]> => [])
    }
    return { a, calls, typed: a as unknown as ObservabilityApi }
  }
  const ownedIn = (body: unknown) =>
    Registry.read(
      [
        dashboard(
          'x',
          [MINE, 'obsdeploy-registry'],
          (body as { tiles: Array<Record<string, unknown>> }).tiles
        )
      ],
      'shop',
      MINE
    ).snapshot()

  it('creates the registry dashboard once, tagged for the stack; later changes update it', async () => {
    const { a, calls, typed } = api()
    const w = new RegistryWriter(Registry.empty('shop', MINE), typed, 'self-hosted')
    await w.record('Webhook', 'w1', { name: 'pager' })
    await w.record('Source', 's1', { name: 'Logs' })
    await w.forget('Webhook', 'w1')
    expect(calls.map(c => c.slice(0, 2))).toStrictEqual([
      ['create', expect.anything()],
      ['update', 'reg-new'],
      ['update', 'reg-new']
    ])
    expect(calls[0]![1]).toMatchObject({
      name: 'obsdeploy registry (stack shop)',
      tags: [MINE, 'obsdeploy-registry']
    })
    expect(ownedIn(calls[0]![1])).toStrictEqual({ Webhook: { w1: { name: 'pager' } } })
    expect(ownedIn(calls[2]![2])).toStrictEqual({ Source: { s1: { name: 'Logs' } } })
    expect(a.listDashboards).not.toHaveBeenCalled()
  })

  it('changes that arrive while a write is under way go out together in the next write', async () => {
    const { calls, typed } = api()
    const tiles = registryTiles('shop', { Webhook: { w0: { name: 'old' } } })
    const existing = Registry.read([dashboard('reg', [MINE, 'obsdeploy-registry'], tiles)], 'shop', MINE)
    const w = new RegistryWriter(existing, typed, 'self-hosted')
    await Promise.all([
      w.record('Webhook', 'w1', { name: 'a' }),
      w.record('Webhook', 'w2', { name: 'b' }),
      w.forget('Webhook', 'w0')
    ])
    expect(calls.map(c => c.slice(0, 2))).toStrictEqual([
      ['update', 'reg'],
      ['update', 'reg']
    ])
    expect(ownedIn(calls[0]![2])).toStrictEqual({ Webhook: { w0: { name: 'old' }, w1: { name: 'a' } } })
    expect(ownedIn(calls[1]![2])).toStrictEqual({ Webhook: { w1: { name: 'a' }, w2: { name: 'b' } } })
  })

  it('after a lost create response it finds the registry the create made and updates that one', async () => {
    const { a, calls, typed } = api()
    a.createDashboard.mockRejectedValueOnce(new Error('socket hang up'))
    a.listDashboards.mockResolvedValueOnce([
      dashboard('other', ['obsdeploy:billing', 'obsdeploy-registry'], registryTiles('billing', {})),
      dashboard('made', [MINE, 'obsdeploy-registry'], registryTiles('shop', {}))
    ])
    const w = new RegistryWriter(Registry.empty('shop', MINE), typed, 'self-hosted')
    await w.record('Webhook', 'w1', { name: 'a' })
    await w.record('Webhook', 'w2', { name: 'b' })
    expect(calls.map(c => c.slice(0, 2))).toStrictEqual([
      ['update', 'made'],
      ['update', 'made']
    ])
  })

  it('a failed write rejects each change it carried, and the next write still has them out', async () => {
    const { a, calls, typed } = api()
    a.createDashboard.mockRejectedValueOnce(new Error('HTTP 500'))
    const w = new RegistryWriter(Registry.empty('shop', MINE), typed, 'self-hosted')
    await expect(w.record('Webhook', 'w1', { name: 'a' })).rejects.toThrow('HTTP 500')
    await w.record('Webhook', 'w2', { name: 'b' })
    expect(ownedIn(calls.at(-1)![1])).toStrictEqual({ Webhook: { w2: { name: 'b' } } })
    const none = new RegistryWriter(Registry.empty('shop', MINE), undefined, 'self-hosted')
    await expect(none.forget('Webhook', 'w1')).rejects.toThrow('no API to write the registry with')
  })
})
