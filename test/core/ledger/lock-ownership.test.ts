import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { StaleWriteError, writeFileAtomicText } from '../../../electron/core/fs/atomic'
import { LockLostError, lockStaleMs, withLock } from '../../../electron/core/fs/lock'

let dir: string
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-lock-'))
})
afterEach(() => rmSync(dir, { recursive: true, force: true }))

/** What another process does to a lock it finds stale: remove the directory and make its own. */
function takeOver(lockDir: string): void {
  rmdirSync(lockDir)
  mkdirSync(lockDir)
  const later = new Date(Date.now() + 5_000)
  utimesSync(lockDir, later, later)
}

describe('withLock after the lock was taken over', () => {
  it('refuses the write, keeps the file and never removes the new owner\'s lock', async () => {
    const file = join(dir, 'MEMORY.md')
    writeFileSync(file, 'newer text from the new owner')
    await expect(
      withLock(file, async (lock) => {
        lock.assertHeld()
        takeOver(lock.lockfilePath)
        expect(() => lock.assertHeld()).toThrow(LockLostError)
        await writeFileAtomicText(file, 'stale copy')
      })
    ).rejects.toThrow(/took over the lock on MEMORY\.md while this write was paused; nothing was written/)
    expect(readFileSync(file, 'utf8')).toBe('newer text from the new owner')
    expect(readdirSync(dir).sort()).toEqual(['MEMORY.md', 'MEMORY.md.lock'])
    expect(existsSync(`${file}.lock`)).toBe(true)
  })

  it('a write whose file changed since it was read is refused, even under a good lock', async () => {
    const file = join(dir, 'SKILL.md')
    writeFileSync(file, 'as read')
    await withLock(file, async () => {
      writeFileSync(file, 'changed by someone who ignores the lock')
      await expect(writeFileAtomicText(file, 'from the stale read', { expect: 'as read' })).rejects.toThrow(StaleWriteError)
      await expect(writeFileAtomicText(join(dir, 'new.md'), 'x', { expect: 'something' })).rejects.toThrow(StaleWriteError)
      await writeFileAtomicText(join(dir, 'new.md'), 'x', { expect: null })
    })
    expect(readFileSync(file, 'utf8')).toBe('changed by someone who ignores the lock')
    expect(readdirSync(dir).sort()).toEqual(['SKILL.md', 'new.md'])
  })

  it('an ordinary hold writes and releases', async () => {
    const file = join(dir, 'config.json')
    await withLock(file, () => writeFileAtomicText(file, '{}\n', { expect: null }))
    expect(readdirSync(dir)).toEqual(['config.json'])
  })

  it('the stale time comes from CAIRN_LOCK_STALE_MS, never below the library\'s 2 s', () => {
    expect(lockStaleMs({})).toBe(10_000)
    expect(lockStaleMs({ CAIRN_LOCK_STALE_MS: '2500' })).toBe(2_500)
    expect(lockStaleMs({ CAIRN_LOCK_STALE_MS: '10' })).toBe(2_000)
    expect(lockStaleMs({ CAIRN_LOCK_STALE_MS: 'soon' })).toBe(10_000)
  })
})

describe('work a lock callback leaves behind', () => {
  it('writes normally after the lock is released (it is no longer under that lock)', async () => {
    const file = join(dir, 'later.md')
    let later: Promise<void> | null = null
    let fire: () => void = () => {}
    const fired = new Promise<void>((resolve) => (fire = resolve))
    await withLock(join(dir, 'MEMORY.md'), () => {
      later = fired.then(() => writeFileAtomicText(file, 'written after the release'))
    })
    fire()
    await later
    expect(readFileSync(file, 'utf8')).toBe('written after the release')
  })
})
