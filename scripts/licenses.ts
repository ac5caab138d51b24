/**
 * The notices of the packages bundled into dist/: ncc's `--license` option writes them, but one file per
 * chunk. Given a fixed file name (`--license licenses.txt`) every chunk overwrites the previous one, and the
 * file ends up listing only the last chunk's packages (the Octokit chunk's, without zod, yaml or undici). So
 * the build asks for `[name].licenses.txt` and this merges those into one `licenses.txt` per bundle, each
 * package once, in ncc's own format: name, licence id, licence text, a blank line.
 */
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import path from 'node:path'

export interface Notice {
  name: string
  text: string
}

const PACKAGE_NAME = /^(@[a-z0-9][\w.~-]*\/)?[a-z0-9][\w.~-]*$/
const LICENSE_ID = /^[\w.+-]+( (OR|AND|WITH) [\w.+-]+)*$|^\(.*\)$/

/** The packages of a lock file, by name: the only lines that may start a notice. */
export function lockedPackages(lockFile: string): Set<string> {
  const lock = JSON.parse(readFileSync(lockFile, 'utf8')) as { packages: Record<string, unknown> }
  return new Set(
    Object.keys(lock.packages)
      .filter(key => key.includes('node_modules/'))
      .map(key => key.slice(key.lastIndexOf('node_modules/') + 'node_modules/'.length))
  )
}

/**
 * Splits one notices file into its packages. A notice starts at a line that names an installed package, at
 * the top or after a blank line, followed by a licence id; licence texts have blank lines of their own.
 */
export function parseNotices(text: string, isPackage: (name: string) => boolean): Notice[] {
  const lines = text.replace(/\r\n/g, '\n').split('\n')
  const starts = lines
    .map((_, i) => i)
    .filter(
      i =>
        (i === 0 || lines[i - 1] === '') &&
        PACKAGE_NAME.test(lines[i]) &&
        isPackage(lines[i]) &&
        LICENSE_ID.test(lines[i + 1] ?? '')
    )
  if (text.trim() !== '' && starts[0] !== 0) throw new Error('a notices file must start with a package name')
  return starts.map((start, k) => ({
    name: lines[start],
    text: lines
      .slice(start, starts[k + 1] ?? lines.length)
      .join('\n')
      .trim()
  }))
}

/** One notices text: every package once, sorted by name as ncc sorts them. */
export function mergeNotices(texts: string[], isPackage: (name: string) => boolean): string {
  const byName = new Map<string, string>()
  for (const text of texts)
    for (const notice of parseNotices(text, isPackage)) byName.set(notice.name, notice.text)
  const names = [...byName.keys()].sort((a, b) => (a < b ? -1 : 1))
  return `${names.map(name => byName.get(name)).join('\n\n')}\n`
}

/** Replaces the per-chunk `*.licenses.txt` files of a bundle folder by one `licenses.txt`. */
export function mergeLicenseFiles(folder: string, isPackage: (name: string) => boolean): string[] {
  const parts = readdirSync(folder)
    .filter(file => file.endsWith('.licenses.txt'))
    .map(file => path.join(folder, file))
  const merged = mergeNotices(
    parts.map(file => readFileSync(file, 'utf8')),
    isPackage
  )
  for (const file of parts) rmSync(file)
  writeFileSync(path.join(folder, 'licenses.txt'), merged)
  return parseNotices(merged, isPackage).map(notice => notice.name)
}
