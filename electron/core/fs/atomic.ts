import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import writeFileAtomic from 'write-file-atomic'

/** Writes through a temp file + fsync + rename, so a crash leaves either the old or the new file, never half of one. */
export async function writeFileAtomicText(path: string, text: string): Promise<void> {
  mkdirSync(dirname(path), { recursive: true })
  await writeFileAtomic(path, text, { encoding: 'utf8', fsync: true })
}

export function writeFileAtomicTextSync(path: string, text: string): void {
  mkdirSync(dirname(path), { recursive: true })
  writeFileAtomic.sync(path, text, { encoding: 'utf8', fsync: true })
}
