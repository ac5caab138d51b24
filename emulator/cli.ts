// npm run emulator -- --port N [--seed file] [--persist file] [--no-rate-limit]
// Starts the emulator, prints its URL and credentials, and runs until SIGINT or SIGTERM.
import { readSeedFile } from './seed.js'
import { startEmulator } from './server.js'
import type { EmulatorOptions } from './types.js'

const USAGE = 'usage: npm run emulator -- [--port N] [--seed file] [--persist file] [--no-rate-limit]'

function parseArgs(argv: string[]): EmulatorOptions {
  const options: EmulatorOptions = {}
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
      case '--persist':
        options.persistPath = value()
        break
      case '--no-rate-limit':
        options.rateLimits = { selfHosted: false, managed: false }
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
  const emulator = await startEmulator(parseArgs(process.argv.slice(2)))
  const { credentials: c } = emulator
  const basic = Buffer.from(`${c.keyId}:${c.keySecret}`).toString('base64')
  console.log(`Observability API emulator listening on ${emulator.url}`)
  console.log('')
  console.log('Self-hosted')
  console.log(`  base URL      ${emulator.url}/api/v2`)
  console.log(`  API key       ${c.apiKey}   (Authorization: Bearer ${c.apiKey})`)
  console.log(`  ingestion key ${c.ingestionKey}   (refused by the management API)`)
  console.log('Managed')
  console.log(`  base URL      ${emulator.url}/v1/organizations/${c.organizationId}/services/${c.serviceId}`)
  console.log(`  key id/secret ${c.keyId} / ${c.keySecret}   (Authorization: Basic ${basic})`)
  console.log(`  read-only     ${c.readOnlyKeyId} / ${c.readOnlyKeySecret}`)
  console.log(`  organization  ${c.organizationId}`)
  console.log(`  services      ${c.serviceId} (production), ${c.devServiceId} (development)`)
  console.log('')
  console.log('Press Ctrl+C to stop.')

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
