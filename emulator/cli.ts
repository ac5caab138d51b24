// npm run emulator -- --port N [--seed file] [--persist file] [--no-rate-limit] [--no-mcp] [--server next] [--fault spec ...]
// Starts the emulator, prints what to pass to obsdeploy and the credentials, and runs until SIGINT or SIGTERM.
import { banner } from './banner.js'
import { FAULT_HELP, parseFaultSpec } from './fault-spec.js'
import { readSeedFile } from './seed.js'
import { startEmulator } from './server.js'
import type { EmulatorOptions, FaultRule } from './types.js'

const USAGE = `usage: npm run emulator -- [--port N] [--seed file] [--persist file] [--no-rate-limit] [--no-mcp] [--server 2.36|next] [--fault spec]...

  --port N          listen on 127.0.0.1:N (default: a free port)
  --seed file       start from this seed (default: emulator/fixtures/seed.json)
  --persist file    keep the state in this file across restarts
  --no-rate-limit   no 429s from the limiters (FACTS.md: 100/min self-hosted, 10/10 s managed)
  --no-mcp          no MCP endpoint POST /mcp (clickstack_patch_dashboard): as a server before HyperDX 2.36
  --server next     answer as a HyperDX newer than 2.36 (emulator/next-server.ts): alerts with displayName, tags
                    and runbookUrl, each reset by a write that omits it, and a table tile's
                    alternateRowBackground in the v2 form (default: 2.36)
  ${FAULT_HELP.replace(/\n/g, '\n  ')}`

function parseArgs(argv: string[]): EmulatorOptions & { faults: FaultRule[] } {
  const options: EmulatorOptions & { faults: FaultRule[] } = { faults: [] }
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index]
    const value = () => {
      const next = argv[++index]
      if (next === undefined) throw new Error(`${arg} needs a value\n${USAGE}`)
      return next
    }
    switch (arg) {
      case '--port': {
        const port = Number(value())
        if (!Number.isInteger(port) || port < 0 || port > 65535)
          throw new Error(`--port: not a port number\n${USAGE}`)
        options.port = port
        break
      }
      case '--seed':
        options.seed = readSeedFile(value())
        break
      case '--server': {
        const server = value()
        if (server !== '2.36' && server !== 'next') throw new Error(`--server: 2.36 or next\n${USAGE}`)
        options.server = server
        break
      }
      case '--persist':
        options.persistPath = value()
        break
      case '--no-rate-limit':
        options.rateLimits = { selfHosted: false, managed: false }
        break
      case '--no-mcp':
        options.mcp = false
        break
      case '--fault':
        options.faults.push(parseFaultSpec(value()))
        break
      case '--help':
      case '-h':
        console.log(USAGE)
        process.exit(0)
        break
      default:
        throw new Error(`unknown argument ${arg}\n${USAGE}`)
    }
  }
  return options
}

async function main(): Promise<void> {
  const { faults, ...options } = parseArgs(process.argv.slice(2))
  const emulator = await startEmulator(options)
  for (const rule of faults) emulator.faults.add(rule)
  console.log(banner({ ...emulator, user: emulator.user, mcp: options.mcp !== false }, faults))

  const stop = () => {
    void emulator.close().then(() => process.exit(0))
  }
  process.once('SIGINT', stop)
  process.once('SIGTERM', stop)
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error)
  process.exit(1)
})
