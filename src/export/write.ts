/**
 * Where export writes, and what it will not do there. The folder is the user's (often the repository's
 * manifests, under review), so export:
 * - writes only inside `--out`, and never through a symbolic link: not the folder, not a folder on the way
 *   to it below the working directory, not a file in it (a link could lead anywhere on the machine);
 * - never replaces a file it did not write, or one edited since: each file it writes starts with a stamp,
 *   the digest of the text below it. A file whose text still matches its stamp is replaced; any other file
 *   is kept as it is, unless `--force`.
 */
import { constants } from 'node:fs'
import { lstat, mkdir, open, readFile } from 'node:fs/promises'
import path from 'node:path'
import { errorMessage } from '../error-message.js'
import { textDigest } from '../manifest/files.js'

/** The stamp line: `# obsdeploy export sha256:<digest of the text below> ...`. */
const STAMP = /^# obsdeploy export sha256:([\w-]+)[^\n]*\n/

/** The text with its stamp, as export writes it. */
export function stamped(text: string): string {
  return `# obsdeploy export sha256:${textDigest(text)} (the next export replaces this file only while it is unedited, or with --force)\n${text}`
}

/** Whether a file's text is one export wrote, unedited since. */
export function unedited(text: string): boolean {
  const stamp = STAMP.exec(text)
  return stamp !== null && textDigest(text.slice(stamp[0].length)) === stamp[1]
}

/**
 * The `--out` folder, made when missing, one level at a time so no link on the way is followed; or why
 * not, in words. Below the working directory every part of the path is checked; a folder named outside it
 * is the user's explicit choice, and only the folder itself (and what export creates) is.
 */
export async function outFolder(cwd: string, out: string): Promise<{ dir: string } | { problem: string }> {
  const dir = path.resolve(cwd, out)
  const base = isInside(path.resolve(cwd), dir) ? path.resolve(cwd) : path.dirname(dir)
  const named = (at: string) => path.relative(cwd, at) || '.'
  const refuse = (what: string) => ({ problem: `--out ${out}: ${what}` })
  let at = base
  for (const part of path.relative(base, dir).split(path.sep).filter(Boolean)) {
    at = path.join(at, part)
    try {
      const info = await lstatOrNothing(at)
      if (!info) await mkdir(at)
      else if (info.isSymbolicLink())
        return refuse(
          `${named(at)} is a symbolic link: export never writes through a link, which could lead outside the folder. Name the folder itself, or a new one`
        )
      else if (!info.isDirectory())
        return refuse(
          `${named(at)} is a file, not a folder. Export writes one manifest file per dashboard into a folder (made when missing): name a folder, e.g. --out observability/`
        )
    } catch (e) {
      const code = (e as { code?: string }).code
      const why = code === 'EACCES' || code === 'EPERM' ? 'permission denied' : errorMessage(e)
      return refuse(`cannot make the folder ${named(at)}: ${why}`)
    }
  }
  return { dir }
}

export type WriteOutcome = { status: 'written' | 'unchanged' } | { status: 'kept'; why: string }

/** Writes one exported file into `dir`, unless it would replace what is not export's to replace. */
export async function writeExported(
  dir: string,
  name: string,
  text: string,
  force: boolean
): Promise<WriteOutcome> {
  const file = path.join(dir, name)
  if (path.basename(name) !== name || !isInside(dir, file) || file === dir)
    return { status: 'kept', why: 'is not a plain file name: export writes only inside --out' }
  const content = stamped(text)
  const info = await lstatOrNothing(file)
  if (info?.isSymbolicLink())
    return {
      status: 'kept',
      why: 'is a symbolic link: export never writes through a link (not even with --force)'
    }
  if (info && !info.isFile()) return { status: 'kept', why: 'is not a regular file' }
  if (info) {
    const existing = await readFile(file, 'utf8')
    if (existing === content) return { status: 'unchanged' }
    if (!force && !unedited(existing))
      return {
        status: 'kept',
        why: STAMP.test(existing)
          ? 'was edited since export wrote it: kept as it is (move it away, or --force to replace it)'
          : 'was not written by export: kept as it is (move it away, or --force to replace it)'
      }
  }
  try {
    await writeNoFollow(file, content, info === undefined)
  } catch (e) {
    const code = (e as { code?: string }).code
    if (code === 'ELOOP' || code === 'EEXIST')
      return { status: 'kept', why: 'appeared while export was writing (a link, or a new file): not written' }
    return { status: 'kept', why: `cannot be written: ${errorMessage(e)}` }
  }
  return { status: 'written' }
}

/**
 * O_NOFOLLOW: a link put in the file's place since it was checked is refused, not written through; `fresh`: a file
 * made in the meantime is refused too (O_EXCL). Sync writes with it as well.
 */
export async function writeNoFollow(file: string, content: string, fresh: boolean): Promise<void> {
  const flags =
    constants.O_WRONLY |
    constants.O_CREAT |
    constants.O_TRUNC |
    (constants.O_NOFOLLOW ?? 0) |
    (fresh ? constants.O_EXCL : 0)
  const handle = await open(file, flags, 0o666)
  try {
    await handle.writeFile(content)
  } finally {
    await handle.close()
  }
}

/** The file's lstat, or nothing where there is no file. */
export async function lstatOrNothing(at: string) {
  try {
    return await lstat(at)
  } catch (e) {
    if ((e as { code?: string }).code === 'ENOENT') return undefined
    throw e
  }
}

const isInside = (root: string, target: string): boolean => {
  const rel = path.relative(root, target)
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel))
}
