import type { BrowserWindow, OpenDialogOptions } from 'electron'
import { describe, expect, it } from 'vitest'
import { filePicker } from '../../electron/main/shell/folder-picker'

describe('the import file picker', () => {
  it('asks for one existing file of the export types, starting at the typed path, and answers null when cancelled', async () => {
    const asked: OpenDialogOptions[] = []
    let answer = { canceled: false, filePaths: ['/Users/me/Downloads/export.zip'] }
    const pick = filePicker({
      dialog: { showOpenDialog: async (_window, options) => (asked.push(options), answer) },
      parent: () => ({}) as BrowserWindow,
      title: () => 'Choose what to import'
    })
    expect(await pick({ defaultPath: '/Users/me/Downloads', filters: [{ name: 'Export', extensions: ['zip', 'json'] }] })).toBe('/Users/me/Downloads/export.zip')
    expect(asked[0]).toEqual({ title: 'Choose what to import', properties: ['openFile'], filters: [{ name: 'Export', extensions: ['zip', 'json'] }], defaultPath: '/Users/me/Downloads' })
    answer = { canceled: true, filePaths: [] }
    expect(await pick({})).toBeNull()
  })
})
