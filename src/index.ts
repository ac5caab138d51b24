/** The action's entry: ncc bundles this file into dist/index.js. */
import { main } from './main.js'

await main()
