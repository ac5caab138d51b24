/**
 * `--policy-source` in the CLI: a local path (a file, or a folder whose `.yaml` and `.yml` files are read,
 * subfolders included), or `<git ref>:<path>` of the local repository, read with git (`origin/main:policies`,
 * the path from the repository's root, as `git show` takes it). The CLI never calls GitHub.
 */
import { execFile } from 'node:child_process'
import { existsSync } from 'node:fs'
import { readdir, readFile, stat } from 'node:fs/promises'
import path from 'node:path'
import { promisify } from 'node:util'
import { errorMessage } from '../error-message.js'
import type { CentralRead, PolicyFile } from '../policy/sources.js'

const run = promisify(execFile)

export async function readLocalPolicySource(value: string, cwd: string): Promise<CentralRead> {
  const origin = value
  try {
    const local = path.resolve(cwd, value)
    if (existsSync(local)) return { origin, files: await readFolder(local, cwd) }
    const colon = value.indexOf(':')
    if (colon <= 0 || value.startsWith('-'))
      return { origin, unreadable: 'no such file or folder, and not a `<git ref>:<path>` either' }
    return { origin, files: await readGit(value.slice(0, colon), value.slice(colon + 1), cwd) }
  } catch (e) {
    return { origin, unreadable: errorMessage(e).split('\n')[0]! }
  }
}

async function readFolder(at: string, cwd: string): Promise<PolicyFile[]> {
  const show = (file: string) => path.relative(cwd, file).split(path.sep).join('/') || file
  if (!(await stat(at)).isDirectory()) return [{ path: show(at), text: await readFile(at, 'utf8') }]
  const entries = await readdir(at, { recursive: true, withFileTypes: true })
  const files = entries
    .filter(e => e.isFile() && /\.ya?ml$/.test(e.name))
    .map(e => path.join(e.parentPath, e.name))
    .sort()
  return Promise.all(files.map(async f => ({ path: show(f), text: await readFile(f, 'utf8') })))
}

async function readGit(ref: string, inside: string, cwd: string): Promise<PolicyFile[]> {
  const where = inside.replace(/^\/+|\/+$/g, '')
  // `--` ends the options: a ref or path that starts with `-` is not read as one.
  const { stdout } = await run(
    'git',
    ['ls-tree', '-r', '-z', '--full-tree', ref, '--', ...(where ? [where] : [])],
    { cwd, maxBuffer: 64 * 2 ** 20 }
  )
  const blobs = stdout
    .split('\0')
    .filter(Boolean)
    .map(line => /^\d+ blob ([0-9a-f]+)\t(.*)$/s.exec(line))
    .filter((m): m is RegExpExecArray => m !== null && /\.ya?ml$/.test(m[2]!))
  const files: PolicyFile[] = []
  for (const [, sha, file] of blobs) {
    const { stdout: text } = await run('git', ['cat-file', 'blob', sha!], { cwd, maxBuffer: 8 * 2 ** 20 })
    files.push({ path: `${ref}:${file}`, text })
  }
  return files
}
