import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import Ajv from 'ajv'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from './build-shell'

// electron-builder's own schema and YAML parser (installed with it), so the config is checked as it will be read.
const requireFromRepo = createRequire(join(REPO_ROOT, 'package.json'))
const yaml = requireFromRepo('js-yaml') as { load(text: string): unknown }
const schema = requireFromRepo('app-builder-lib/scheme.json') as object

function pngSize(file: string): { width: number; height: number } {
  const bytes = readFileSync(file)
  expect(bytes.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a')
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) }
}

describe('electron-builder.yml', () => {
  const config = yaml.load(readFileSync(join(REPO_ROOT, 'electron-builder.yml'), 'utf8')) as Record<string, any>

  it('is valid for electron-builder', () => {
    const validate = new Ajv({ allErrors: true, strict: false }).compile(schema)
    expect(validate(config), JSON.stringify(validate.errors)).toBe(true)
  })

  it('ships the built app in an asar with the native module unpacked and rebuilt for Electron', () => {
    expect(config).toMatchObject({ appId: expect.any(String), productName: 'Cairn', asar: true, npmRebuild: true })
    expect(config.files).toEqual(expect.arrayContaining(['out/main/**', 'out/preload/**', 'out/renderer/**', 'package.json']))
    // The CLI bundle needs the checkout's node_modules: it is not part of the desktop app.
    expect(config.files).not.toContain('out/**')
    expect(config.asarUnpack).toEqual(expect.arrayContaining(['**/*.node', 'node_modules/better-sqlite3/**']))
    expect(config.linux.target).toEqual(['AppImage', 'deb'])
    expect(config.mac.target).toEqual(['dmg', 'zip'])
    expect(config.win.target).toEqual(['nsis'])
  })

  it('has what each target needs: an author with an e-mail and a homepage (deb), a Linux maintainer and category', () => {
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8'))
    expect(pkg.author).toEqual({ name: expect.any(String), email: expect.stringMatching(/^[^@\s]+@[^@\s]+\.[a-z]+$/) })
    expect(pkg.homepage).toMatch(/^https:\/\//)
    expect(config.linux.maintainer).toMatch(/<[^@\s]+@[^@\s]+>/)
    expect(config.linux.category).toBe('Utility')
    expect(pkg.scripts.package).toBe('node scripts/package.mjs')
  })

  it('ships only what cannot be bundled: the runtime dependencies are the native and file-loading packages', () => {
    const pkg = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8'))
    expect(Object.keys(pkg.dependencies).sort()).toEqual(['better-sqlite3', 'pdfjs-dist', 'sqlite-vec'])
    // What scripts/electron-native.mjs loads is declared, not borrowed from electron-builder's tree.
    expect(pkg.devDependencies).toMatchObject({ '@electron/rebuild': expect.any(String), 'node-abi': expect.any(String) })
  })

  it('points at icons that exist: a large app icon and 1x/2x tray images', () => {
    const icon = pngSize(join(REPO_ROOT, config.linux.icon))
    expect(icon.width).toBeGreaterThanOrEqual(512)
    expect(icon.width).toBe(icon.height)
    for (const [name, size] of [['tray.png', 16], ['tray@2x.png', 32], ['trayTemplate.png', 16], ['trayTemplate@2x.png', 32]] as const) {
      expect(pngSize(join(REPO_ROOT, 'resources', name))).toEqual({ width: size, height: size })
    }
  })
})
