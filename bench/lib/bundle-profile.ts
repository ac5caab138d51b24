/**
 * Where a bundled process spends its time: `node --cpu-prof` of one run of a dist/ bundle, its self time
 * attributed to the package (or src/ room) each sampled function comes from. ncc's output names the
 * modules it concatenates (`// CONCATENATED MODULE: ./node_modules/zod/...`) and the CommonJS modules
 * it requires by id (`// EXTERNAL MODULE: ...` above `__nccwpck_require__(id)`, `__webpack_require__` in a
 * chunk); a CommonJS module it does not name (undici's and yaml's inner files) belongs to the package of the
 * module that requires it. A module factory's own frame is the top-level code of the modules in it.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { runNode } from './child.js'

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
  children?: number[]
}

/** A bundle folder (index.js and its chunks): the owner (package or src room) of each line of each file. */
interface BundleMap {
  ownerAt(file: string, line: number): string
}

const owner = (modulePath: string): string => {
  const p = modulePath.replace(/^\.\//, '').replace(/ \+ \d+ modules$/, '')
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(p)
  if (pkg) return pkg[1]!
  const room = /^src\/([^/]+)\//.exec(p)
  if (room) return `src/${room[1]}`
  return p.startsWith('src/') ? 'src (base files)' : p.startsWith('external') ? 'node built-ins' : p
}

type Start = { line: number; id?: string; name?: string }

function mapBundle(folder: string): BundleMap {
  // Module ids are shared by the entry and its chunks: names and requires are gathered over all files.
  const startsOf = new Map<string, Start[]>()
  const named = new Map<string, string>()
  const requires = new Map<string, string[]>()
  for (const file of readdirSync(folder).filter(f => f.endsWith('.js'))) {
    const lines = readFileSync(path.join(folder, file), 'utf8').split('\n')
    const starts: Start[] = []
    startsOf.set(path.join(folder, file), starts)
    let current: string | undefined
    for (let i = 0; i < lines.length; i++) {
      const text = lines[i]!
      const factory = /^\/\*\*\*\/ (\d+):$/.exec(text)
      if (factory) {
        current = factory[1]!
        starts.push({ line: i, id: current })
        continue
      }
      // The module cache and loaders follow the last module: not that module's time. Their self time is
      // V8 compiling each module factory as the loader first calls it (a callee has no frame yet).
      if (text.startsWith('/******/ // The module cache')) {
        starts.push({ line: i, name: 'compiling modules as they load' })
        current = undefined
        continue
      }
      const concatenated = /^;\/\/ CONCATENATED MODULE: (\S+)/.exec(text)
      if (concatenated) starts.push({ line: i, name: owner(concatenated[1]!) })
      const external = /^\/\/ EXTERNAL MODULE: (.+)$/.exec(text)
      const required = external && /__(?:nccwpck|webpack)_require__\((\d+)\)/.exec(lines[i + 1] ?? '')
      if (external && required) named.set(required[1]!, owner(external[1]!))
      if (current)
        for (const m of text.matchAll(/__(?:nccwpck|webpack)_require__\((\d+)\)/g))
          requires.set(current, [...(requires.get(current) ?? []), m[1]!])
    }
  }
  // A section's owner: its EXTERNAL name, the concatenated modules it holds, or its requirer's package.
  const sectionOwner = new Map<string, string>()
  for (const starts of startsOf.values())
    for (let k = 0; k < starts.length; k++) {
      const s = starts[k]!
      if (!s.id) continue
      const inner = starts.slice(k + 1).find(x => x.id || x.name)
      if (named.has(s.id)) sectionOwner.set(s.id, named.get(s.id)!)
      else if (inner?.name && !inner.id) sectionOwner.set(s.id, inner.name)
    }
  for (let changed = true; changed;) {
    changed = false
    for (const [from, tos] of requires) {
      const o = sectionOwner.get(from)
      if (!o || o.startsWith('src') || o === 'node built-ins') continue
      for (const to of tos)
        if (!sectionOwner.has(to)) {
          sectionOwner.set(to, o)
          changed = true
        }
    }
  }
  return {
    ownerAt(file: string, line: number): string {
      const starts = startsOf.get(file) ?? []
      let lo = 0
      let hi = starts.length - 1
      let found: Start | undefined
      while (lo <= hi) {
        const mid = (lo + hi) >> 1
        if (starts[mid]!.line <= line) {
          found = starts[mid]
          lo = mid + 1
        } else hi = mid - 1
      }
      if (!found) return 'bundle runtime'
      // A module factory's own frame runs the top-level code of every module concatenated into it.
      if (found.id && line === found.line + 1) return 'evaluating modules (their top-level code)'
      return found.name ?? sectionOwner.get(found.id!) ?? 'bundled CommonJS (unnamed)'
    }
  }
}

export interface ProfileShare {
  what: string
  ms: number
  share: number
}

/**
 * Runs `node --cpu-prof <args>` once and returns the self time by owner, largest first. Compilation of the
 * bundle, garbage collection and node's own start-up are their own rows.
 */
export async function profileBundleRun(
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv }
): Promise<ProfileShare[]> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'obsdeploy-prof-'))
  try {
    const run = await runNode(
      ['--cpu-prof', '--cpu-prof-interval', '250', '--cpu-prof-dir', dir, ...args],
      options
    )
    if (run.code !== 0) throw new Error(`profiled run exited ${run.code}: ${run.stderr.slice(-500)}`)
    const file = readdirSync(dir).find(f => f.endsWith('.cpuprofile'))
    if (!file) throw new Error('no CPU profile was written')
    const p = JSON.parse(readFileSync(path.join(dir, file), 'utf8')) as {
      nodes: ProfileNode[]
      samples: number[]
      timeDeltas: number[]
    }
    const byId = new Map(p.nodes.map(n => [n.id, n]))
    const parent = new Map<number, number>()
    for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id)
    const maps = new Map<string, BundleMap>()
    const bundleOf = (url: string): { map: BundleMap; file: string } | undefined => {
      if (!/\/dist\/(cli\/)?[\w.]*index\.js$/.test(url)) return undefined
      const file = new URL(url).pathname
      const folder = path.dirname(file)
      if (!maps.has(folder)) maps.set(folder, mapBundle(folder))
      return { map: maps.get(folder)!, file }
    }
    const totals = new Map<string, number>()
    let total = 0
    p.samples.forEach((sample, i) => {
      const top = byId.get(sample)!.callFrame
      if (top.functionName === '(idle)') return
      const us = p.timeDeltas[i] ?? 0
      total += us
      let what: string | undefined
      if (top.functionName === '(garbage collector)') what = 'garbage collection'
      else if (top.functionName === '(program)') what = 'V8 (program: parsing, compiling lazily)'
      for (let cur: number | undefined = sample; !what && cur !== undefined; cur = parent.get(cur)) {
        const cf = byId.get(cur)!.callFrame
        if (/^compile(SourceTextModule|Function)/.test(cf.functionName)) what = 'compiling the bundle'
        const bundle = bundleOf(cf.url)
        if (!what && bundle) what = bundle.map.ownerAt(bundle.file, cf.lineNumber)
      }
      what ??= 'node itself (start-up, I/O, built-ins)'
      totals.set(what, (totals.get(what) ?? 0) + us)
    })
    return [...totals]
      .sort((a, b) => b[1] - a[1])
      .map(([what, us]) => ({ what, ms: us / 1000, share: us / total }))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** "js-yaml 22%, zod 14%, ..." (the first `count`). */
export const describeShares = (shares: readonly ProfileShare[], count = 8): string =>
  shares
    .slice(0, count)
    .map(s => `${s.what} ${(s.share * 100).toFixed(0)}%`)
    .join(', ')
