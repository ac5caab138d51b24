/** `npm run docs`: writes action.yml and the README's inputs and outputs tables from the registries in src/config/. */
import { writeFileSync } from 'node:fs'
import { actionYml, readmeWithTables, readText } from './generated-files.js'

writeFileSync(new URL('../action.yml', import.meta.url), actionYml())
writeFileSync(new URL('../README.md', import.meta.url), readmeWithTables(readText('README.md')))
console.log('wrote action.yml and the README tables')
