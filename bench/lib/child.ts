/** Child node processes: wall time, exit code, output, and the peak RSS the child reports at exit. */
import { spawn } from 'node:child_process'

/** Preloaded into a child: prints its peak RSS (kB) on stderr as it exits. */
export const RSS_HOOK =
  "data:text/javascript,process.on('exit',()=>process.stderr.write('\\nBENCH_MAXRSS_KB '+process.resourceUsage().maxRSS+'\\n'))"

export interface ChildResult {
  code: number | null
  ms: number
  stdout: string
  stderr: string
  /** Peak RSS in bytes, when the RSS hook was loaded. */
  maxRss?: number
}

export function runNode(
  args: readonly string[],
  options: { cwd?: string; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {}
): Promise<ChildResult> {
  return new Promise((resolve, reject) => {
    const start = performance.now()
    const child = spawn(process.execPath, args, {
      cwd: options.cwd,
      env: options.env ?? { PATH: process.env.PATH, HOME: process.env.HOME },
      stdio: ['ignore', 'pipe', 'pipe']
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000)
    child.once('error', e => {
      clearTimeout(timer)
      reject(e)
    })
    child.once('close', code => {
      clearTimeout(timer)
      const ms = performance.now() - start
      const m = /BENCH_MAXRSS_KB (\d+)/.exec(stderr)
      resolve({ code, ms, stdout, stderr, maxRss: m ? Number(m[1]) * 1024 : undefined })
    })
  })
}
