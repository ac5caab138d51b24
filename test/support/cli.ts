/** The CLI in-process against an emulator, its output collected: what a user would see on a pipe. */
import { cli, type CliIo } from '../../src/cli.js'
import type { Emulator } from '../../emulator/index.js'
import type { Workspace } from './harness.js'

export interface CliRun {
  code: number
  stdout: string
  stderr: string
}

export async function runCli(
  emu: Emulator,
  ws: Workspace,
  args: readonly string[],
  io: Partial<Pick<CliIo, 'env' | 'isTty' | 'isStderrTty'>> = {}
): Promise<CliRun> {
  let stdout = ''
  let stderr = ''
  const code = await cli(args, {
    stdout: t => (stdout += t),
    stderr: t => (stderr += t),
    env: { OBSDEPLOY_API_KEY: emu.credentials.apiKey, ...io.env },
    cwd: ws.dir,
    isTty: io.isTty ?? false,
    ...(io.isStderrTty !== undefined ? { isStderrTty: io.isStderrTty } : {})
  })
  return { code, stdout, stderr }
}
