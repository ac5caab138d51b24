/**
 * Finding and reading manifest files. Paths are reported relative to the working directory with `/`
 * separators, because that is what GitHub annotations and the PR diff expect.
 */
import { readFile, stat } from 'node:fs/promises'
import path from 'node:path'
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
  const include = patterns.filter(p => !p.startsWith('!'))
  const ignore = patterns.filter(p => p.startsWith('!')).map(p => p.slice(1))
  const found = include.length === 0 ? [] : await glob(include, { cwd, ignore, onlyFiles: true, dot: false })
  const files = [...new Set(found.map(f => f.split(path.sep).join('/')))].sort()
  const diagnostics: Diagnostic[] = []
  if (files.length === 0) {
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

export async function readManifestFile(
  relPath: string,
  cwd: string
): Promise<{ file?: ManifestFile; diagnostics: Diagnostic[] }> {
  const at = { file: relPath, line: 1, column: 1 }
  const abs = path.resolve(cwd, relPath)
  try {
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
