/**
 * git, run as a program: the sync's commit and push go through the checkout's own git, with the credentials
 * actions/checkout left in the repository's config, so the token is never on a command line or in a URL.
 * No shell: arguments are passed as they are. A failure quotes what git said on stderr, with anything that
 * looks like a credential taken out first: git echoes remote URLs, and a URL can carry one.
 */
import { execFile } from 'node:child_process'
import { printable, redactor } from '../log.js'

export interface GitOptions {
  /** Added to the environment the runner gave (e.g. GIT_INDEX_FILE for a temporary index). */
  env?: Record<string, string>
  /** Values to take out of an error's text whatever their shape (the github-token). */
  secrets?: readonly string[]
}

/** A git call that failed: its arguments and git's stderr, both scrubbed of credentials. */
export class GitError extends Error {
  constructor(
    /** `git push --force origin …`, as run. */
    readonly command: string,
    /** git's stderr, credentials removed, one printable line per line git wrote. */
    readonly stderr: string,
    /** The exit code, or undefined when git could not be started or was killed. */
    readonly exitCode: number | undefined
  ) {
    super(`${command} failed${exitCode === undefined ? '' : ` (exit code ${exitCode})`}${quoted(stderr)}`)
    this.name = 'GitError'
  }
}

function quoted(stderr: string): string {
  return stderr === '' ? '' : `:\n${stderr.replace(/^/gm, '  ')}`
}

// git's output is small here (a status, a sha, a push's progress); 16 MiB is room for a status of many files.
const MAX_BUFFER = 16 * 2 ** 20
// The last lines of stderr carry the reason; a push's progress before them does not.
const MAX_LINES = 30

/** Runs git in `cwd` and resolves to its stdout; rejects with a GitError. */
export function git(cwd: string, args: readonly string[], options: GitOptions = {}): Promise<string> {
  // A prompt for a username would wait forever on a runner: fail at once instead.
  const env = { ...process.env, ...options.env, GIT_TERMINAL_PROMPT: '0' }
  return new Promise((resolve, reject) => {
    execFile(
      'git',
      [...args],
      { cwd, env, maxBuffer: MAX_BUFFER, encoding: 'utf8' },
      (error, stdout, stderr) => {
        if (!error) return resolve(stdout)
        const scrub = scrubber(options.secrets ?? [])
        const code = typeof error.code === 'number' ? error.code : undefined
        const said = stderr || (code === undefined ? error.message : '')
        reject(new GitError(`git ${scrub(printable(args.join(' '), 300))}`, cleanStderr(said, scrub), code))
      }
    )
  })
}

function cleanStderr(text: string, scrub: (text: string) => string): string {
  const lines = text
    .split(/\r?\n|\r/)
    .map(line => scrub(printable(line, 500)).trimEnd())
    .filter(line => line.trim() !== '')
  return lines.slice(-MAX_LINES).join('\n')
}

/**
 * Takes out of a text what looks like a credential: the userinfo of a URL (`https://x-access-token:…@`), the
 * value of an Authorization header (actions/checkout's `http.extraheader` holds one, base64), GitHub's token
 * formats, and the given secrets in any of the forms a log could show them in.
 */
export function scrubber(secrets: readonly string[]): (text: string) => string {
  const known = redactor(secrets)
  return text =>
    known(text)
      .replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^/\s@'"]+@/gi, '$1***@')
      .replace(/\b(authorization:\s*(?:basic|bearer|token))\s+[\w+/=.~-]+/gi, '$1 ***')
      .replace(/\b(?:gh[pousr]_[A-Za-z0-9_]{16,}|github_pat_[A-Za-z0-9_]{20,})/g, '***')
}
