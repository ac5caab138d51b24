/** `npm run local-action`: @github/local-action calls the `run` export of its entry; the action's entry is main(). */
import '../src/zod-setup.js'
export { main as run } from '../src/main.js'
