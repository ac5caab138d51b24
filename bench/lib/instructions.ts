/**
 * Instructions a whole node process executes, counted by `valgrind --tool=callgrind` (all threads, start-up
 * and exit included): unlike time, the count hardly moves with the machine's load, so a goal in instructions
 * holds on a shared machine. Slow (a 600 M-instruction start takes 15-30 s under callgrind), so it is kept for
 * short processes: the cold start of section 4.
 */
import { execFileSync, spawn } from 'node:child_process'
import { median } from './stats.js'

let available: boolean | undefined
export function hasCallgrind(): boolean {
  if (available === undefined)
    try {
      execFileSync('valgrind', ['--version'], { stdio: 'ignore' })
      available = true
    } catch {
      available = false
    }
  return available
}

/** One count: `node <args>` under callgrind; throws when the process fails or callgrind says nothing. */
export function countInstructions(
  node: string,
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv }
): Promise<number> {
  return new Promise((resolve, reject) => {
    const child = spawn('valgrind', ['--tool=callgrind', '--callgrind-out-file=/dev/null', node, ...args], {
      cwd: options.cwd,
      env: options.env,
      stdio: ['ignore', 'ignore', 'pipe']
    })
    let stderr = ''
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
    const timer = setTimeout(() => child.kill('SIGKILL'), 600_000)
    child.once('error', e => {
      clearTimeout(timer)
      reject(e)
    })
    child.once('close', code => {
      clearTimeout(timer)
      const collected = /Collected : (\d+)/.exec(stderr)
      if (code !== 0 || !collected)
        reject(new Error(`callgrind of ${args.join(' ')} exited ${code}: ${stderr.slice(-800)}`))
      else resolve(Number(collected[1]))
    })
  })
}

/** The median of `runs` counts, and the counts. */
export async function medianInstructions(
  runs: number,
  node: string,
  args: readonly string[],
  options: { cwd: string; env: NodeJS.ProcessEnv }
): Promise<{ median: number; counts: number[] }> {
  const counts: number[] = []
  for (let i = 0; i < runs; i++) counts.push(await countInstructions(node, args, options))
  return { median: median(counts), counts }
}

/** "614.3 M". */
export const millions = (n: number): string => `${(n / 1e6).toFixed(1)} M`
