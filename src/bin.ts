#!/usr/bin/env node
/** The CLI's entry: ncc bundles this file into dist/cli/index.js (the `obsdeploy` bin). */
import './zod-setup.js'
import { cli } from './cli.js'

process.exitCode = await cli(process.argv.slice(2), {
  stdout: text => process.stdout.write(text),
  stderr: text => process.stderr.write(text),
  env: process.env,
  cwd: process.cwd(),
  isTty: Boolean(process.stdout.isTTY),
  isStderrTty: Boolean(process.stderr.isTTY)
})
