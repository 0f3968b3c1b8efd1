import { existsSync } from 'node:fs'
import { join } from 'node:path'

/**
 * The project's shared test data lives beside the checkout (`../shared`): the Hermes skill corpus and
 * the LoCoMo benchmark. `CAIRN_SHARED` points elsewhere. Tests that need it say so loudly when it is
 * missing instead of passing quietly.
 */
export const sharedDir = process.env.CAIRN_SHARED ?? join(__dirname, '..', '..', '..', 'shared')
export const skillCorpusDir = process.env.CAIRN_SKILL_CORPUS ?? join(sharedDir, 'corpus', 'hermes-skills')
export const locomoFile = process.env.CAIRN_LOCOMO ?? join(sharedDir, 'data', 'locomo10.json')

/** True when the data is there; otherwise prints why the dependent tests are skipped. */
export function haveSharedData(path: string, what: string): boolean {
  if (existsSync(path)) return true
  console.warn(`[cairn tests] SKIPPING ${what}: ${path} is missing (set CAIRN_SHARED to the shared data folder).`)
  return false
}
