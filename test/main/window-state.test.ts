import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import Conf from 'conf'
import { afterEach, describe, expect, it } from 'vitest'
import { ShellStore, SHELL_STATE_NAME, shellStoreOptions } from '../../electron/main/settings/shell-store'
import { placeWindow } from '../../electron/main/windows/window-state'

const laptop = { x: 0, y: 0, width: 1440, height: 875 }
const external = { x: 1440, y: 0, width: 2560, height: 1415 }
const defaults = { width: 1100, height: 760 }
const dirs: string[] = []

function userData(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-'))
  dirs.push(dir)
  return dir
}

/** The shell store as the app opens it, over electron-store minus Electron (its base class `conf`). */
function shellStoreIn(dir: string): ShellStore {
  const { name, ...options } = shellStoreOptions
  return new ShellStore(new Conf<Record<string, unknown>>({ cwd: dir, configName: name, ...options }))
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

describe('main window placement', () => {
  it('reopens where it was closed', () => {
    const dir = userData()
    shellStoreIn(dir).saveWindowState({ bounds: { x: 1600.4, y: 80, width: 1300, height: 900 }, maximized: true })
    const placement = placeWindow(shellStoreIn(dir).windowState(), [laptop, external], defaults)
    expect(placement).toEqual({ bounds: { x: 1600, y: 80, width: 1300, height: 900 }, maximized: true })
  })

  it('comes back to the centre when its monitor is gone, keeping a size that fits', () => {
    const saved = { bounds: { x: 1600, y: 80, width: 2400, height: 1300 }, maximized: false }
    expect(placeWindow(saved, [laptop], defaults)).toEqual({ bounds: { width: 1440, height: 875 }, maximized: false })
  })

  it('comes back when only a sliver or no title bar would be on screen', () => {
    expect(placeWindow({ bounds: { x: 1400, y: 100, width: 800, height: 600 }, maximized: false }, [laptop], defaults).bounds.x).toBeUndefined()
    expect(placeWindow({ bounds: { x: 100, y: -500, width: 800, height: 600 }, maximized: false }, [laptop], defaults).bounds.y).toBeUndefined()
    expect(placeWindow({ bounds: { x: 900, y: 100, width: 800, height: 600 }, maximized: false }, [laptop], defaults).bounds).toMatchObject({ x: 900, y: 100 })
  })

  it('uses the default size the first time and when the file is damaged, then saves over the damage', () => {
    expect(placeWindow(shellStoreIn(userData()).windowState(), [laptop], defaults)).toEqual({ bounds: defaults, maximized: false })
    const dir = userData()
    const file = join(dir, `${SHELL_STATE_NAME}.json`)
    for (const junk of ['{"bounds":', '[]', JSON.stringify({ bounds: { x: 0, y: 0, width: 'wide', height: 10 } }), JSON.stringify({ bounds: { x: 0, y: 0, width: 5, height: 5 } })]) {
      writeFileSync(file, junk)
      const store = shellStoreIn(dir)
      expect(store.windowState(), junk).toBeNull()
      store.saveWindowState({ bounds: { x: 10, y: 20, width: 800, height: 600 }, maximized: false })
      expect(shellStoreIn(dir).windowState(), junk).toEqual({ bounds: { x: 10, y: 20, width: 800, height: 600 }, maximized: false })
    }
  })
})

describe('the shell store', () => {
  it('keeps the window place in its own small readable file in userData, and the keys it does not know', () => {
    const dir = userData()
    const file = join(dir, `${SHELL_STATE_NAME}.json`)
    writeFileSync(file, JSON.stringify({ laterShellState: { kept: true } }))
    const store = shellStoreIn(dir)
    expect(store.path).toBe(file)
    store.saveWindowState({ bounds: { x: 10, y: 20, width: 800, height: 600 }, maximized: false })
    expect(readFileSync(file, 'utf8')).toBe(
      JSON.stringify({ laterShellState: { kept: true }, bounds: { x: 10, y: 20, width: 800, height: 600 }, maximized: false }, null, 2) + '\n'
    )
  })

  it('reads the file an earlier version wrote', () => {
    const dir = userData()
    writeFileSync(join(dir, 'window-state.json'), JSON.stringify({ bounds: { x: 30, y: 40, width: 900, height: 700 }, maximized: true }, null, 2) + '\n')
    expect(shellStoreIn(dir).windowState()).toEqual({ bounds: { x: 30, y: 40, width: 900, height: 700 }, maximized: true })
  })

  it('refuses to save a place no screen could have, leaving the file as it was', () => {
    const dir = userData()
    const store = shellStoreIn(dir)
    store.saveWindowState({ bounds: { x: 10, y: 20, width: 800, height: 600 }, maximized: false })
    expect(() => store.saveWindowState({ bounds: { x: 10, y: 20, width: 5, height: 5 }, maximized: false })).toThrow()
    expect(store.windowState()?.bounds).toEqual({ x: 10, y: 20, width: 800, height: 600 })
  })
})
