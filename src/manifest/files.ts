/**
 * Finding and reading manifest files. Paths are reported relative to the working directory with `/`
 * separators, because that is what GitHub annotations and the PR diff expect.
 */
import type { realpath as nodeRealpath } from 'node:fs'
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { readFile, realpath, stat } from 'node:fs/promises'
import path from 'node:path'
import picomatch from 'picomatch'
import { glob } from 'tinyglobby'
import { diagnostic, type Diagnostic } from '../diagnostics.js'
import { errorMessage } from '../error-message.js'

/** A manifest larger than this is refused before it is read: no real manifest comes close. */
export const MAX_MANIFEST_BYTES = 1024 * 1024

export interface ManifestFile {
  /** Relative to the working directory, `/`-separated. */
  path: string
  text: string
}

/** `a/**\/*.yaml, b.yml` or one pattern per line; `!pattern` excludes. Commas inside `{a,b}` stay. */
export function splitPatterns(input: string | readonly string[]): string[] {
  const text = typeof input === 'string' ? input : input.join('\n')
  const parts: string[] = []
  let depth = 0
  let current = ''
  for (const ch of text) {
    if (ch === '{') depth++
    if (ch === '}') depth = Math.max(0, depth - 1)
    if (ch === '\n' || (ch === ',' && depth === 0)) {
      parts.push(current)
      current = ''
    } else current += ch
  }
  parts.push(current)
  return parts.map(p => p.trim()).filter(p => p.length > 0)
}

export async function findManifestFiles(
  patterns: readonly string[],
  cwd: string
): Promise<{ files: string[]; diagnostics: Diagnostic[] }> {
  const outside = patterns.filter(p => !p.startsWith('!') && reachesOutside(p, cwd))
  const include = patterns.filter(p => !p.startsWith('!') && !outside.includes(p))
  const ignore = patterns.filter(p => p.startsWith('!')).map(p => p.slice(1))
  const root = await realRoot(cwd)
  const links: OutsideLink[] = []
  const found =
    include.length === 0
      ? []
      : await glob(include, {
          cwd,
          ignore,
          onlyFiles: true,
          dot: false,
          fs: { realpath: insideOnly(root, links) as unknown as typeof nodeRealpath }
        })
  // Defence in depth: whatever a pattern looked like, a file it found outside the workspace is not read.
  const files = [...new Set(found.map(f => f.split(path.sep).join('/')))]
    .filter(f => isInside(path.resolve(cwd), path.resolve(cwd, f)))
    .sort()
  const diagnostics: Diagnostic[] = [
    ...outside.map(p => outsidePattern(p, cwd)),
    ...refusedLinks(links, cwd, include, ignore)
  ]
  if (files.length === 0 && diagnostics.length === 0) {
    // Refuse rather than plan against nothing: an empty desired state would look like "delete everything".
    diagnostics.push(
      diagnostic(
        'validate',
        'error',
        `no manifest files matched ${patterns.map(p => `'${p}'`).join(', ')} (relative to ${cwd})`
      )
    )
  }
  return { files, diagnostics }
}

/**
 * The manifest globs as a test of one path (relative to the working directory, `/`-separated), with the
 * search's own terms: `!glob` excludes, dot files are not matched. For paths the search cannot walk (another
 * commit's files, read through an API).
 */
export function manifestMatcher(patterns: readonly string[]): (file: string) => boolean {
  const include = patterns.filter(p => !p.startsWith('!')).map(p => p.replace(/^\.\//, ''))
  const ignore = patterns.filter(p => p.startsWith('!')).map(p => p.slice(1).replace(/^\.\//, ''))
  if (include.length === 0) return () => false
  const yes = picomatch(include, { dot: false })
  const no = ignore.length > 0 ? picomatch(ignore, { dot: false }) : () => false
  return file => yes(file) && !no(file)
}

/**
 * Whether a pattern can match a path outside the workspace: its fixed start (`../outside`, `/etc/passwd`)
 * lies outside, or a `..` after a wildcard could climb out (`observability/**\/../../etc/*`).
 */
function reachesOutside(pattern: string, cwd: string): boolean {
  const { base, glob: rest } = picomatch.scan(pattern)
  if (!isInside(path.resolve(cwd), path.resolve(cwd, base))) return true
  return /(^|[/{,])\.\.($|[/},])/.test(rest)
}

/** The refusal of a pattern that reaches outside: the setting, the pattern and the workspace by name. */
function outsidePattern(pattern: string, cwd: string): Diagnostic {
  return diagnostic(
    'validate',
    'error',
    `manifests: '${pattern}' reaches outside the workspace (${cwd}): refused, because a pattern in a pull request could make the run read and show any file on the runner. Keep the manifests inside the repository, and name them relative to it`
  )
}

/** A symbolic link met while searching whose target lies outside the workspace. */
interface OutsideLink {
  /** Absolute path of the link itself (never its target: the target is none of our business). */
  link: string
  directory: boolean
}

/**
 * The glob's `realpath`, which it calls for each symbolic link it meets: a link that leads outside the
 * workspace is recorded and not followed, so a link to `/` is never walked and a link to a secret is
 * never read. Links inside the workspace are followed as before.
 */
function insideOnly(root: string, outside: OutsideLink[]) {
  return (link: string, callback: (error: Error | null, resolved: string) => void): void => {
    realpath(link).then(
      async resolved => {
        if (isInside(root, resolved)) return callback(null, resolved)
        const directory = await stat(resolved).then(
          s => s.isDirectory(),
          () => false
        )
        outside.push({ link: path.resolve(link), directory })
        callback(Object.assign(new Error('outside the workspace'), { code: 'EACCES' }), '')
      },
      (error: Error) => callback(error, '')
    )
  }
}

/** Errors for the links that lead outside: files the patterns ask for, folders the search would enter. */
function refusedLinks(
  links: readonly OutsideLink[],
  cwd: string,
  include: readonly string[],
  ignore: readonly string[]
): Diagnostic[] {
  const ignored = ignore.length > 0 ? picomatch([...ignore], { dot: false }) : () => false
  const out: Diagnostic[] = []
  for (const { link, directory } of links) {
    const rel = path.relative(cwd, link).split(path.sep).join('/')
    // Patterns are relative to the working directory, or absolute: match each in its own terms.
    const as = (p: string) => (path.isAbsolute(p) ? link.split(path.sep).join('/') : rel)
    const enters = (p: string) => mayEnter(p, as(p))
    if (ignored(rel) || !(directory ? include.some(enters) : include.some(p => picomatch(p)(as(p))))) continue
    out.push(
      diagnostic(
        'validate',
        'error',
        directory
          ? 'is a symbolic link to a folder outside the workspace: not searched, because a link in a pull request could expose any file on the runner. Move the manifests into the repository, or exclude the link with a !pattern'
          : 'is a symbolic link to a file outside the workspace: refused, because a link in a pull request could expose any file on the runner. Commit the manifest itself instead of a link',
        { file: rel, line: 1, column: 1 }
      )
    )
  }
  return out.sort((a, b) => a.file!.localeCompare(b.file!))
}

/** Whether the search for `pattern` would look inside the folder `dir`: its segments match a prefix. */
function mayEnter(pattern: string, dir: string): boolean {
  const parts = pattern.split('/')
  const segments = dir.split('/')
  for (let i = 0; i < segments.length; i++) {
    if (parts[i] === '**') return true
    if (i >= parts.length - 1) return false
    // An empty part (the root of an absolute pattern) matches only an empty segment.
    if (parts[i] === '' ? segments[i] !== '' : !picomatch(parts[i]!, { dot: false })(segments[i]!))
      return false
  }
  return true
}

/** The workspace's real path (it may itself be reached through a link, e.g. /tmp on macOS). */
async function realRoot(cwd: string): Promise<string> {
  return realpath(cwd).catch(() => path.resolve(cwd))
}

const isInside = (root: string, target: string): boolean => {
  const rel = path.relative(root, target)
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel))
}

/** sha256 of a manifest file's text as read: a saved plan records it to know the file unchanged. */
export const textDigest = (text: string): string => createHash('sha256').update(text).digest('base64url')

/**
 * A manifest file's text again, for positions asked for after its text was let go (yaml.ts): read as
 * readManifestFile read it, or nothing when it is no longer the text of `digest` (changed or gone since).
 */
export function rereadManifestText(relPath: string, cwd: string, digest: string): string | undefined {
  try {
    const text = decodeText(readFileSync(path.resolve(cwd, relPath)))
    return text !== undefined && textDigest(text) === digest ? text : undefined
  } catch {
    return undefined
  }
}

/** How many files are read at once: realpath, stat and read of one file overlap those of the next. */
export const READ_CONCURRENCY = 16

/**
 * The files in order, read `concurrency` at a time ahead of the consumer: the same results as reading one
 * after another, without each file's realpath, stat and read waiting for the last one's.
 */
export async function* readManifestFiles(
  relPaths: readonly string[],
  cwd: string,
  concurrency = READ_CONCURRENCY
): AsyncGenerator<{ path: string; file?: ManifestFile; diagnostics: Diagnostic[] }> {
  const root = realRoot(cwd)
  const pending: Array<Promise<{ file?: ManifestFile; diagnostics: Diagnostic[] }>> = []
  let next = 0
  const fill = () => {
    while (next < relPaths.length && pending.length < concurrency)
      pending.push(readManifestFile(relPaths[next++]!, cwd, root))
  }
  for (const relPath of relPaths) {
    fill()
    const read = await pending.shift()!
    yield { path: relPath, ...read }
  }
}

export async function readManifestFile(
  relPath: string,
  cwd: string,
  /** The workspace's real path, when the caller has it already (many files). */
  root?: Promise<string>
): Promise<{ file?: ManifestFile; diagnostics: Diagnostic[] }> {
  const at = { file: relPath, line: 1, column: 1 }
  try {
    // Only files in the workspace are read: a path named outside it is refused without being opened, and
    // so is one whose real path leads outside (a folder on the way may be a link: `observability/x` -> `/etc`).
    const named = path.resolve(cwd, relPath)
    if (!isInside(path.resolve(cwd), named)) {
      return {
        diagnostics: [
          diagnostic(
            'validate',
            'error',
            `is outside the workspace (${cwd}): refused, because a path in a pull request could expose any file on the runner. Keep the manifests inside the repository`,
            at
          )
        ]
      }
    }
    const abs = await realpath(named)
    if (!isInside(await (root ?? realRoot(cwd)), abs)) {
      return {
        diagnostics: [
          diagnostic(
            'validate',
            'error',
            'is reached through a symbolic link that leads outside the workspace: refused, because a link in a pull request could expose any file on the runner. Replace the link with the folder or file itself',
            at
          )
        ]
      }
    }
    const info = await stat(abs)
    if (info.size > MAX_MANIFEST_BYTES) {
      return {
        diagnostics: [
          diagnostic(
            'validate',
            'error',
            `file is ${info.size} bytes; manifests are limited to ${MAX_MANIFEST_BYTES} bytes (split it into several files)`,
            at
          )
        ]
      }
    }
    const bytes = await readFile(abs)
    const text = decodeText(bytes)
    if (text === undefined) {
      return {
        diagnostics: [
          diagnostic(
            'validate',
            'error',
            'is not a UTF-8 text file (binary content or control characters)',
            at
          )
        ]
      }
    }
    return { file: { path: relPath, text }, diagnostics: [] }
  } catch (e) {
    return { diagnostics: [diagnostic('validate', 'error', `cannot be read: ${errorMessage(e)}`, at)] }
  }
}

/** C0 controls other than tab, newline and carriage return, and DEL: YAML does not allow them in text. */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/

/** UTF-8 without control characters, or nothing: binary junk is refused, not parsed. */
function decodeText(bytes: Buffer): string | undefined {
  try {
    const text = new TextDecoder('utf-8', { fatal: true }).decode(bytes)
    if (CONTROL.test(text)) return undefined
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text
  } catch {
    return undefined
  }
}
