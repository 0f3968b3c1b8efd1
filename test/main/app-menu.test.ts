import { describe, expect, it } from 'vitest'
import type { MenuItemConstructorOptions } from 'electron'
import { translator, type Translate } from '../../shared/i18n'
import { appMenuTemplate } from '../../electron/main/shell/app-menu'
import { contextMenuTemplate, type ContextMenuActions, type ContextMenuFacts } from '../../electron/main/shell/context-menu'

type Item = MenuItemConstructorOptions
const en = translator('en')
const zh = translator('zh-CN')
const PLATFORMS: NodeJS.Platform[] = ['darwin', 'win32', 'linux']
const DEVELOPER_ROLES = ['reload', 'forceReload', 'toggleDevTools']

function menu(platform: NodeJS.Platform, overrides: { packaged?: boolean; t?: Translate } = {}) {
  const calls: string[] = []
  const template = appMenuTemplate({
    platform,
    packaged: overrides.packaged ?? true,
    t: overrides.t ?? en,
    appName: 'Cairn',
    actions: { openSettings: () => calls.push('settings'), newChat: () => calls.push('newChat'), newIncognitoChat: () => calls.push('newIncognitoChat') }
  })
  return { template, calls }
}

const submenuOf = (item: Item): Item[] => (Array.isArray(item.submenu) ? (item.submenu as Item[]) : [])
const everyItem = (items: Item[]): Item[] => items.flatMap((item) => [item, ...everyItem(submenuOf(item))])
const rolesIn = (items: Item[]) => items.map((item) => item.role).filter(Boolean)
const topLevel = (template: Item[], label: string) => {
  const found = template.find((item) => item.label === label)
  if (!found) throw new Error(`no ${label} menu`)
  return submenuOf(found)
}
const click = (item: Item | undefined) => item!.click!({} as any, undefined, {} as any)

function expectTidySeparators(items: Item[]) {
  const kinds = items.map((item) => (item.type === 'separator' ? '-' : 'x')).join('')
  expect(kinds, 'leading separator').not.toMatch(/^-/)
  expect(kinds, 'trailing separator').not.toMatch(/-$/)
  expect(kinds, 'adjacent separators').not.toContain('--')
}

describe('application menu', () => {
  it('has no reload or developer tools in a packaged build, on any platform', () => {
    for (const platform of PLATFORMS) {
      const roles = rolesIn(everyItem(menu(platform, { packaged: true }).template))
      for (const role of DEVELOPER_ROLES) expect(roles, `${platform} ${role}`).not.toContain(role)
    }
  })

  it('offers reload and developer tools in a development build', () => {
    for (const platform of PLATFORMS) {
      const view = topLevel(menu(platform, { packaged: false }).template, 'View')
      expect(rolesIn(view), platform).toEqual(expect.arrayContaining(DEVELOPER_ROLES))
    }
  })

  it('has the standard Edit roles and View zoom on every platform', () => {
    for (const platform of PLATFORMS) {
      const { template } = menu(platform)
      expect(rolesIn(topLevel(template, 'Edit')), platform).toEqual(expect.arrayContaining(['undo', 'redo', 'cut', 'copy', 'paste', 'selectAll']))
      expect(rolesIn(topLevel(template, 'View')), platform).toEqual(expect.arrayContaining(['resetZoom', 'zoomIn', 'zoomOut', 'togglefullscreen']))
    }
  })

  it('puts About, Settings and Quit in the macOS app menu, first, and keeps Quit out of File', () => {
    const { template, calls } = menu('darwin')
    expect(template[0].label).toBe('Cairn')
    const appMenu = submenuOf(template[0])
    expect(rolesIn(appMenu)).toEqual(['about', 'services', 'hide', 'hideOthers', 'unhide', 'quit'])
    expect(appMenu.find((item) => item.role === 'quit')?.label).toBe('Quit Cairn')
    const settings = appMenu.find((item) => item.label === 'Settings…')
    expect(settings?.accelerator).toBe('CmdOrCtrl+,')
    click(settings)
    expect(calls).toEqual(['settings'])
    expect(rolesIn(topLevel(template, 'File'))).not.toContain('quit')
    expect(rolesIn(topLevel(template, 'Window'))).toEqual(['minimize', 'zoom', 'front'])
  })

  it('puts Settings and Quit under File on Windows and Linux, with no app menu', () => {
    for (const platform of ['win32', 'linux'] as const) {
      const { template, calls } = menu(platform)
      expect(template.map((item) => item.label), platform).toEqual(['File', 'Edit', 'View', 'Window'])
      const file = topLevel(template, 'File')
      expect(rolesIn(file), platform).toEqual(['close', 'quit'])
      click(file.find((item) => item.label === 'Settings…'))
      expect(calls, platform).toEqual(['settings'])
      expect(rolesIn(everyItem(template)), platform).not.toContain('about')
      expect(rolesIn(topLevel(template, 'Window')), platform).toEqual(['minimize', 'close'])
    }
  })

  it('starts a new chat from File with Cmd/Ctrl+N', () => {
    for (const platform of PLATFORMS) {
      const { template, calls } = menu(platform)
      const newChat = topLevel(template, 'File')[0]
      expect(newChat.accelerator).toBe('CmdOrCtrl+N')
      click(newChat)
      expect(calls).toEqual(['newChat'])
    }
  })

  it('starts a new incognito chat from File with Cmd/Ctrl+Shift+N', () => {
    for (const platform of PLATFORMS) {
      const { template, calls } = menu(platform)
      const item = topLevel(template, 'File').find((entry) => entry.accelerator === 'CmdOrCtrl+Shift+N')
      expect(item?.label).toBe('New incognito chat')
      click(item)
      expect(calls).toEqual(['newIncognitoChat'])
    }
  })

  it('labels every item in English and in Chinese, and keeps separators tidy', () => {
    for (const platform of PLATFORMS) {
      for (const t of [en, zh]) {
        const { template } = menu(platform, { packaged: false, t })
        for (const item of everyItem(template)) {
          if (item.type === 'separator') continue
          expect(item.label?.trim(), `${platform} ${item.role ?? ''}`).toBeTruthy()
        }
        for (const top of template) expectTidySeparators(submenuOf(top))
      }
    }
  })

  it('translates the menu, role items included', () => {
    const english = menu('darwin', { packaged: false }).template
    const chinese = menu('darwin', { packaged: false, t: zh }).template
    const copyIn = (template: Item[]) => everyItem(template).find((item) => item.role === 'copy')?.label
    expect(chinese[1].label).toBe('文件')
    expect(chinese[2].label).not.toBe(english[2].label)
    expect(copyIn(chinese)).toBe('复制')
    expect(copyIn(chinese)).not.toBe(copyIn(english))
    expect(everyItem(chinese).find((item) => item.role === 'quit')?.label).toBe('退出 Cairn')
  })
})

const noFlags = { canUndo: false, canRedo: false, canCut: false, canCopy: false, canPaste: false, canSelectAll: false }

function facts(overrides: Partial<ContextMenuFacts> = {}): ContextMenuFacts {
  return { isEditable: false, selectionText: '', linkURL: '', misspelledWord: '', dictionarySuggestions: [], editFlags: noFlags, ...overrides }
}

function contextMenu(params: ContextMenuFacts, options: { copyLink?: boolean; addToDictionary?: boolean; t?: Translate } = {}) {
  const calls: string[] = []
  const actions: ContextMenuActions = {
    replaceMisspelling: (word) => calls.push(`replace:${word}`),
    ...(options.addToDictionary ? { addToDictionary: (word: string) => calls.push(`add:${word}`) } : {}),
    ...(options.copyLink !== false ? { copyLink: (url: string) => calls.push(`copyLink:${url}`) } : {})
  }
  const template = contextMenuTemplate(params, options.t ?? en, actions)
  expectTidySeparators(template)
  for (const item of template) if (item.type !== 'separator') expect(item.label?.trim()).toBeTruthy()
  return { template, calls }
}

const shape = (items: Item[]) => items.map((item) => (item.type === 'separator' ? '-' : (item.role ?? item.label)))

describe('text context menu', () => {
  it('offers spelling fixes first in a field, then editing enabled as the field allows', () => {
    const params = facts({
      isEditable: true,
      misspelledWord: 'teh',
      dictionarySuggestions: ['the', 'tea', 'ten', 'tech', 'then', 'tee'],
      editFlags: { ...noFlags, canUndo: true, canPaste: true, canSelectAll: true }
    })
    const { template, calls } = contextMenu(params, { addToDictionary: true })
    expect(shape(template)).toEqual(['the', 'tea', 'ten', 'tech', 'then', 'Add to dictionary', '-', 'undo', 'redo', '-', 'cut', 'copy', 'paste', '-', 'selectAll'])
    const enabled = Object.fromEntries(template.filter((item) => item.role).map((item) => [item.role, item.enabled]))
    expect(enabled).toEqual({ undo: true, redo: false, cut: false, copy: false, paste: true, selectAll: true })
    click(template[0])
    click(template[5])
    expect(calls).toEqual(['replace:the', 'add:teh'])
  })

  it('says "No suggestions" (disabled) when a misspelled word has none', () => {
    const { template } = contextMenu(facts({ isEditable: true, misspelledWord: 'qwzx' }))
    expect(template[0]).toMatchObject({ label: 'No suggestions', enabled: false })
    expect(shape(template)).not.toContain('Add to dictionary')
    expect(template[1].type).toBe('separator')
  })

  it('shows only editing items in a field with no misspelling', () => {
    const { template } = contextMenu(facts({ isEditable: true, editFlags: { ...noFlags, canCopy: true } }))
    expect(shape(template)).toEqual(['undo', 'redo', '-', 'cut', 'copy', 'paste', '-', 'selectAll'])
  })

  it('offers only Copy for a selection outside a field', () => {
    const { template } = contextMenu(facts({ selectionText: 'some answer text' }))
    expect(shape(template)).toEqual(['copy'])
  })

  it('copies a web link address through the action', () => {
    const url = 'https://example.com/docs?page=2'
    const { template, calls } = contextMenu(facts({ linkURL: url }))
    expect(shape(template)).toEqual(['Copy link address'])
    click(template[0])
    expect(calls).toEqual([`copyLink:${url}`])
    expect(shape(contextMenu(facts({ linkURL: url, selectionText: 'docs' })).template)).toEqual(['Copy link address', '-', 'copy'])
  })

  it('gives no copy-link item for a javascript: link, a non-URL, or when the action is missing', () => {
    expect(contextMenu(facts({ linkURL: 'javascript:alert(1)' })).template).toEqual([])
    expect(contextMenu(facts({ linkURL: 'not a url' })).template).toEqual([])
    expect(contextMenu(facts({ linkURL: 'https://example.com' }), { copyLink: false }).template).toEqual([])
  })

  it('returns nothing when nothing applies', () => {
    expect(contextMenu(facts()).template).toEqual([])
    expect(contextMenu(facts({ selectionText: '   ' })).template).toEqual([])
  })

  it('is translated', () => {
    const { template } = contextMenu(facts({ isEditable: true, misspelledWord: 'qwzx' }), { t: zh, addToDictionary: true })
    expect(shape(template).slice(0, 2)).toEqual(['没有拼写建议', '添加到词典'])
    expect(template.find((item) => item.role === 'copy')?.label).toBe('复制')
    expect(contextMenu(facts({ linkURL: 'http://example.com' }), { t: zh }).template[0].label).toBe('复制链接地址')
  })
})
