/**
 * Where export writes (src/export/write.ts): only inside --out, never through a symbolic link, and never
 * over a file it did not write or that was edited since, unless --force; and a wrong --out said in words.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync, existsSync } from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals'
import { cli } from '../../src/cli.js'
import { outFolder, stamped, unedited, writeExported } from '../../src/export/write.js'

let ws: string
let outside: string
beforeEach(() => {
  ws = mkdtempSync(path.join(tmpdir(), 'obsdeploy-export-'))
  outside = mkdtempSync(path.join(tmpdir(), 'obsdeploy-export-outside-'))
})
afterEach(() => {
  rmSync(ws, { recursive: true, force: true })
  rmSync(outside, { recursive: true, force: true })
})

const TEXT = '# Exported dashboard "Checkout" by obsdeploy export.\nkind: Dashboard\nname: Checkout\n'
const read = (...parts: string[]) => readFileSync(path.join(...parts), 'utf8')

describe('the files export writes', () => {
  it('stamps each file with the digest of its text, which an edit breaks', () => {
    const text = stamped(TEXT)
    expect(text).toMatch(/^# obsdeploy export sha256:[\w-]{43} \(.*--force\)\n# Exported dashboard/)
    expect(text.endsWith(TEXT)).toBe(true)
    expect(unedited(text)).toBe(true)
    expect(unedited(text.replace('name: Checkout', 'name: Checkout v2'))).toBe(false)
    expect(unedited(TEXT)).toBe(false)
  })

  it('writes a new file, replaces its own unedited one, and leaves an identical one alone', async () => {
    const dir = path.join(ws, 'observability')
    mkdirSync(dir)
    expect(await writeExported(dir, 'checkout.yaml', TEXT, false)).toEqual({ status: 'written' })
    expect(read(dir, 'checkout.yaml')).toBe(stamped(TEXT))
    expect(await writeExported(dir, 'checkout.yaml', TEXT, false)).toEqual({ status: 'unchanged' })
    const next = TEXT.replace('Checkout', 'Checkout!')
    expect(await writeExported(dir, 'checkout.yaml', next, false)).toEqual({ status: 'written' })
    expect(read(dir, 'checkout.yaml')).toBe(stamped(next))
  })

  it('keeps a file the user edited, and one export did not write; --force replaces them', async () => {
    const dir = path.join(ws, 'observability')
    mkdirSync(dir)
    await writeExported(dir, 'checkout.yaml', TEXT, false)
    const edited = `${read(dir, 'checkout.yaml')}description: mine\n`
    writeFileSync(path.join(dir, 'checkout.yaml'), edited)
    writeFileSync(path.join(dir, 'hand-made.yaml'), 'kind: Dashboard\nname: Hand made\n')
    expect(await writeExported(dir, 'checkout.yaml', TEXT, false)).toEqual({
      status: 'kept',
      why: expect.stringMatching(/^was edited since export wrote it: kept as it is .*--force/)
    })
    expect(await writeExported(dir, 'hand-made.yaml', TEXT, false)).toEqual({
      status: 'kept',
      why: expect.stringMatching(/^was not written by export: kept as it is/)
    })
    expect(read(dir, 'checkout.yaml')).toBe(edited)
    expect(read(dir, 'hand-made.yaml')).toBe('kind: Dashboard\nname: Hand made\n')
    expect(await writeExported(dir, 'checkout.yaml', TEXT, true)).toEqual({ status: 'written' })
    expect(await writeExported(dir, 'hand-made.yaml', TEXT, true)).toEqual({ status: 'written' })
    expect(read(dir, 'hand-made.yaml')).toBe(stamped(TEXT))
  })

  it('never writes through a symbolic link to a file outside, not even with --force', async () => {
    const dir = path.join(ws, 'observability')
    mkdirSync(dir)
    const target = path.join(outside, 'authorized_keys')
    writeFileSync(target, 'ssh-ed25519 AAAA mine\n')
    symlinkSync(target, path.join(dir, 'checkout.yaml'))
    for (const force of [false, true]) {
      expect(await writeExported(dir, 'checkout.yaml', TEXT, force)).toEqual({
        status: 'kept',
        why: expect.stringMatching(/^is a symbolic link: export never writes through a link/)
      })
    }
    expect(read(target)).toBe('ssh-ed25519 AAAA mine\n')
  })

  it('writes nothing outside the folder, whatever the name', async () => {
    const dir = path.join(ws, 'observability')
    mkdirSync(dir)
    for (const name of ['../escaped.yaml', `..${path.sep}..${path.sep}x.yaml`, '', '.'])
      expect((await writeExported(dir, name, TEXT, true)).status).toBe('kept')
    expect(existsSync(path.join(ws, 'escaped.yaml'))).toBe(false)
  })
})

describe('the --out folder', () => {
  it('is made when missing, each level in turn', async () => {
    expect(await outFolder(ws, 'a/b/c')).toEqual({ dir: path.join(ws, 'a', 'b', 'c') })
    expect(existsSync(path.join(ws, 'a', 'b', 'c'))).toBe(true)
    expect(await outFolder(ws, '.')).toEqual({ dir: ws })
  })

  it('is refused when it, or a folder on the way to it, is a symbolic link', async () => {
    symlinkSync(outside, path.join(ws, 'observability'))
    expect(await outFolder(ws, 'observability')).toEqual({
      problem: expect.stringMatching(
        /^--out observability: observability is a symbolic link: export never writes through a link/
      )
    })
    expect(await outFolder(ws, 'observability/exported')).toEqual({
      problem: expect.stringMatching(/^--out observability\/exported: observability is a symbolic link/)
    })
    expect(existsSync(path.join(outside, 'exported'))).toBe(false)
  })

  it('says in words when it is a file, or under one', async () => {
    writeFileSync(path.join(ws, 'plan.json'), '{}')
    expect(await outFolder(ws, 'plan.json')).toEqual({
      problem:
        '--out plan.json: plan.json is a file, not a folder. Export writes one manifest file per dashboard into a folder (made when missing): name a folder, e.g. --out observability/'
    })
    expect(await outFolder(ws, 'plan.json/out')).toEqual({
      problem: expect.stringMatching(/^--out plan.json\/out: plan.json is a file, not a folder\./)
    })
  })

  it('the CLI prints that, not EEXIST or ENOTDIR, and exits 2 before any request', async () => {
    writeFileSync(path.join(ws, 'plan.json'), '{}')
    for (const out of ['plan.json', 'plan.json/dashboards']) {
      let stderr = ''
      const code = await cli(['export', '--out', out, '--api-url', 'http://127.0.0.1:9'], {
        stdout: () => undefined,
        stderr: t => (stderr += t),
        env: { OBSDEPLOY_API_KEY: 'key-1234567890', GITHUB_REPOSITORY: 'acme/shop' },
        cwd: ws,
        isTty: false
      })
      expect(code).toBe(2)
      expect(stderr).toContain(`obsdeploy export: --out ${out}: plan.json is a file, not a folder.`)
      expect(stderr).not.toMatch(/EEXIST|ENOTDIR/)
    }
  })

  it('--force is an option of export, and its help says what it does', async () => {
    let stdout = ''
    const io = {
      stdout: (t: string) => (stdout += t),
      stderr: () => undefined,
      env: {},
      cwd: ws,
      isTty: false
    }
    expect(await cli(['export', '--help'], io)).toBe(0)
    expect(stdout).toMatch(
      /--force\s+export: replace files in --out that export did not write or that were edited/
    )
  })
})
