/** The action's entry: ncc bundles this file into dist/index.js. */
import './zod-setup.js'
import { main } from './main.js'

await main()
