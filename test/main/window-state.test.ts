import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { placeWindow, readWindowState, writeWindowState } from '../../electron/main/windows/window-state'

const laptop = { x: 0, y: 0, width: 1440, height: 875 }
const external = { x: 1440, y: 0, width: 2560, height: 1415 }
const defaults = { width: 1100, height: 760 }
const dirs: string[] = []

function stateFile(): string {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-'))
  dirs.push(dir)
  return join(dir, 'window-state.json')
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

describe('main window placement', () => {
  it('reopens where it was closed', () => {
    const file = stateFile()
    writeWindowState(file, { bounds: { x: 1600.4, y: 80, width: 1300, height: 900 }, maximized: true })
    const placement = placeWindow(readWindowState(file), [laptop, external], defaults)
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

  it('uses the default size the first time and when the file is damaged', () => {
    expect(placeWindow(readWindowState(join(tmpdir(), 'no-such-cairn-state.json')), [laptop], defaults)).toEqual({ bounds: defaults, maximized: false })
    const file = stateFile()
    for (const junk of ['{"bounds":', '[]', JSON.stringify({ bounds: { x: 0, y: 0, width: 'wide', height: 10 } }), JSON.stringify({ bounds: { x: 0, y: 0, width: 5, height: 5 } })]) {
      writeFileSync(file, junk)
      expect(readWindowState(file), junk).toBeNull()
    }
  })

  it('writes a small readable JSON file', () => {
    const file = stateFile()
    writeWindowState(file, { bounds: { x: 10, y: 20, width: 800, height: 600 }, maximized: false })
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ bounds: { x: 10, y: 20, width: 800, height: 600 }, maximized: false })
  })
})
