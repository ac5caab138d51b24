/** `npm run schema`: writes schema/manifest.schema.json and schema/plan.schema.json. */
import { mkdirSync, writeFileSync } from 'node:fs'
import { manifestSchema, planSchema } from './generated-files.js'

mkdirSync(new URL('../schema/', import.meta.url), { recursive: true })
writeFileSync(new URL('../schema/manifest.schema.json', import.meta.url), manifestSchema())
writeFileSync(new URL('../schema/plan.schema.json', import.meta.url), planSchema())
console.log('wrote schema/manifest.schema.json and schema/plan.schema.json')
