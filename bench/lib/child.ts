/**
 * Child node processes: wall time, exit code, output, and (with `usage`) the CPU time of the whole process
 * as the kernel accounts it once the process has exited (bash's `time`, to the millisecond: user + system of
 * every thread, start-up and teardown included) and its peak RSS (a preloaded hook reads
 * `process.resourceUsage().maxRSS` at exit; both sides of a comparison load it). Without bash, the hook
 * reports the CPU time too, at the `exit` event, which leaves out the teardown.
 */
import { execFileSync, spawn } from 'node:child_process'
import { existsSync } from 'node:fs'

/** A node binary the children run under (`--node` of bench/run.ts), with its version for the tables. */
export interface NodeBinary {
  /** "Node 20.20.2". */
  label: string
  /** Its major version (20, 24): goals that hold on one Node only name it. */
  major: number
  path: string
}

export function nodeBinary(file: string): NodeBinary {
  const version = execFileSync(file, ['--version'], { encoding: 'utf8' }).trim().replace(/^v/, '')
  return { label: `Node ${version}`, major: Number(version.split('.')[0]), path: file }
}

/** The node a child runs under when its call names none: the first of `--node` (else the bench's own). */
let defaultNode = process.execPath
export function setDefaultNode(file: string): void {
  defaultNode = file
}

const BASH = '/bin/bash'
export const usageSource = existsSync(BASH)
  ? 'bash’s `time` (wall and CPU of the node process alone, as the kernel accounts them) and, for the peak RSS, `process.resourceUsage()` at exit'
  : '`process.resourceUsage()` at exit (bash is not installed: teardown is not counted)'

const HOOK =
  "data:text/javascript,process.on('exit',()=>{const u=process.resourceUsage();process.stderr.write('\\nBENCH_USAGE '+u.maxRSS+' '+(u.userCPUTime+u.systemCPUTime)+'\\n')})"

export interface ChildResult {
  code: number | null
  /** Wall time of the node process (with `usage` and bash), else of the spawn. */
  ms: number
  stdout: string
  stderr: string
  /** Peak RSS in bytes (with `usage`). */
  maxRss?: number
  /** CPU time, user + system, in ms (with `usage`). */
  cpuMs?: number
}

export function runNode(
  args: readonly string[],
  options: {
    cwd?: string
    env?: NodeJS.ProcessEnv
    timeoutMs?: number
    usage?: boolean
    /** The node binary (default: the first of `--node`, else the bench's own). */
    node?: string
  } = {}
): Promise<ChildResult> {
  const timed = options.usage && existsSync(BASH)
  const node = options.node ?? defaultNode
  const nodeArgs = options.usage ? ['--import', HOOK, ...args] : [...args]
  const [command, argv] = timed
    ? [BASH, ['-c', `TIMEFORMAT=$'\\nBENCH_TIME %3R %3U %3S'; time "$0" "$@"`, node, ...nodeArgs]]
    : [node, nodeArgs]
  return new Promise((resolve, reject) => {
    const start = performance.now()
    const child = spawn(command, argv, {
      cwd: options.cwd,
      env: options.env ?? { PATH: process.env.PATH, HOME: process.env.HOME },
      stdio: ['ignore', 'pipe', 'pipe']
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    const timeoutMs = options.timeoutMs ?? 120_000
    let timedOut = false
    const timer = setTimeout(() => {
      timedOut = true
      child.kill('SIGKILL')
    }, timeoutMs)
    child.once('error', e => {
      clearTimeout(timer)
      reject(e)
    })
    child.once('close', code => {
      clearTimeout(timer)
      const spawned = performance.now() - start
      const usage = /\nBENCH_USAGE (\d+) (\d+)\n/.exec(stderr)
      const time = /\nBENCH_TIME ([\d.]+) ([\d.]+) ([\d.]+)\n?$/.exec(stderr)
      resolve({
        code,
        ms: time ? Number(time[1]) * 1000 : spawned,
        stdout,
        stderr:
          stderr.replace(/\nBENCH_(USAGE|TIME) .*\n?/g, '') +
          (timedOut ? `\n(killed: still running after ${timeoutMs / 1000} s)` : ''),
        maxRss: usage ? Number(usage[1]) * 1024 : undefined,
        cpuMs: time ? (Number(time[2]) + Number(time[3])) * 1000 : usage ? Number(usage[2]) / 1000 : undefined
      })
    })
  })
}
