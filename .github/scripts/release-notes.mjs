#!/usr/bin/env node
// node .github/scripts/release-notes.mjs v1.2.3 [CHANGELOG.md]
// Prints the body of the `## [1.2.3] - date` section of a Keep a Changelog file: the release notes that
// release.yml gives the GitHub release. Exits 1 when the section is missing or empty, so a tag pushed
// before its CHANGELOG entry makes no release.
import { readFileSync } from 'node:fs'

const [tag, file = 'CHANGELOG.md'] = process.argv.slice(2)
if (!tag || !/^v?\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/.test(tag)) {
  console.error('usage: node .github/scripts/release-notes.mjs v1.2.3 [CHANGELOG.md]')
  process.exit(2)
}
const version = tag.replace(/^v/, '')

const lines = readFileSync(file, 'utf8').split(/\r?\n/)
const heading = lines.findIndex(line => line.startsWith(`## [${version}]`))
if (heading < 0) {
  console.error(`${file} has no section "## [${version}] - YYYY-MM-DD": add one before tagging ${tag}.`)
  process.exit(1)
}
// The section ends at the next version heading or at the link references at the bottom.
const rest = lines.slice(heading + 1)
const end = rest.findIndex(line => line.startsWith('## ') || /^\[[^\]]+\]: \S/.test(line))
const body = (end < 0 ? rest : rest.slice(0, end)).join('\n').trim()
if (body === '') {
  console.error(`The section "## [${version}]" of ${file} is empty: say what changed.`)
  process.exit(1)
}
process.stdout.write(`${body}\n`)
