import { randomBytes, randomUUID } from 'node:crypto'

// Self-hosted ids are MongoDB ObjectIds (FACTS.md "Tiles and ids"): 4 bytes of seconds, 5 random bytes, a 3-byte counter.
const processPart = randomBytes(5).toString('hex')
let counter = randomBytes(3).readUIntBE(0, 3)

export function newObjectId(): string {
  counter = (counter + 1) % 0x1000000
  const seconds = Math.floor(Date.now() / 1000)
    .toString(16)
    .padStart(8, '0')
  return seconds + processPart + counter.toString(16).padStart(6, '0')
}

const OBJECT_ID = /^[0-9a-f]{24}$/i
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i

export function isObjectId(value: string): boolean {
  return OBJECT_ID.test(value)
}

export function isUuid(value: string): boolean {
  return UUID.test(value)
}

/** Managed responses carry a fresh UUID v4 `requestId` (CONTRACT.md, service update). */
export function newRequestId(): string {
  return randomUUID()
}
