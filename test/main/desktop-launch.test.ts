/**
 * What a desktop launch needs that a terminal launch does not: the login shell's PATH, knowing
 * whether a tray icon is really shown, and where the quick prompt may go. Real child processes:
 * stand-in shells and D-Bus tools written to a temporary folder.
 */
import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { adoptLoginShellPath, loginShellPath, mergePaths, wantsLoginShellPath } from '../../electron/main/shell/login-path'
import { trayIsShown } from '../../electron/main/shell/tray-presence'
import { quickPlacement } from '../../electron/main/windows/quick-placement'

const dirs: string[] = []
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true })
})

/** An executable script in a fresh folder; returns its path. */
function script(name: string, body: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'cairn-launch-'))
  dirs.push(dir)
  const path = join(dir, name)
  writeFileSync(path, `#!/bin/sh\n${body}\n`)
  chmodSync(path, 0o755)
  return path
}

/** A login shell whose rc files print a greeting and set PATH; it runs the command it is given (`-i -l -c CMD`). */
const LOGIN_SHELL = 'echo "Welcome back!"\nPATH="/opt/homebrew/bin:/Users/me/.nvm/versions/node/v22/bin:/usr/bin:/bin"\nexport PATH\neval "$4"'

describe('the login shell PATH', () => {
  it('is asked for only by a packaged app on macOS or Linux', () => {
    expect(wantsLoginShellPath({ platform: 'darwin', packaged: true })).toBe(true)
    expect(wantsLoginShellPath({ platform: 'linux', packaged: true })).toBe(true)
    expect(wantsLoginShellPath({ platform: 'darwin', packaged: false })).toBe(false)
    expect(wantsLoginShellPath({ platform: 'win32', packaged: true })).toBe(false)
  })

  it('comes from the login shell, whatever its rc files print around it', async () => {
    const shell = script('zsh', LOGIN_SHELL)
    expect(await loginShellPath(shell, { PATH: '/usr/bin:/bin' })).toBe('/opt/homebrew/bin:/Users/me/.nvm/versions/node/v22/bin:/usr/bin:/bin')
  })

  it('goes in front of the launch PATH, keeping entries only the launch PATH had, once each', async () => {
    const env: NodeJS.ProcessEnv = { PATH: '/usr/bin:/bin:/usr/sbin:/sbin', SHELL: script('zsh', LOGIN_SHELL) }
    expect(await adoptLoginShellPath({ platform: 'darwin', packaged: true }, env)).toEqual({ shell: env.SHELL, adopted: true })
    expect(env.PATH).toBe('/opt/homebrew/bin:/Users/me/.nvm/versions/node/v22/bin:/usr/bin:/bin:/usr/sbin:/sbin')
    expect(mergePaths('/a:/b', '/b:/c:', ':')).toBe('/a:/b:/c')
  })

  it('leaves PATH alone when the shell hangs, fails or is missing, without holding the start', async () => {
    expect(await loginShellPath(script('zsh', 'sleep 30'), {}, 300)).toBeNull()
    expect(await loginShellPath(script('zsh', 'exit 3'), {})).toBeNull()
    const env: NodeJS.ProcessEnv = { PATH: '/usr/bin:/bin', SHELL: '/nonexistent/zsh' }
    expect(await adoptLoginShellPath({ platform: 'linux', packaged: true }, env)).toEqual({ shell: '/nonexistent/zsh', adopted: false })
    expect(env.PATH).toBe('/usr/bin:/bin')
    expect(await adoptLoginShellPath({ platform: 'linux', packaged: false }, env)).toBeNull()
  })
})

describe('whether a tray icon is really shown', () => {
  it('is always so on macOS and Windows', async () => {
    expect(await trayIsShown('darwin', { PATH: '' })).toBe(true)
    expect(await trayIsShown('win32', { PATH: '' })).toBe(true)
  })

  it('on Linux, is so only where a StatusNotifierWatcher owns its name on the session bus', async () => {
    const shown = script('dbus-send', 'echo "method return time=1 sender=org.freedesktop.DBus"; echo "   boolean true"')
    expect(await trayIsShown('linux', { PATH: join(shown, '..') })).toBe(true)
    const hidden = script('dbus-send', 'echo "   boolean false"')
    expect(await trayIsShown('linux', { PATH: join(hidden, '..') })).toBe(false)
    const gdbusOnly = script('gdbus', 'echo "(true,)"')
    expect(await trayIsShown('linux', { PATH: join(gdbusOnly, '..') })).toBe(true)
  })

  it('on Linux, is taken as not shown when the bus cannot be asked (closing the window then quits)', async () => {
    expect(await trayIsShown('linux', { PATH: join(script('unrelated', 'true'), '..') })).toBe(false)
    const noBus = script('dbus-send', 'echo "Failed to open connection to session bus" >&2; exit 1')
    expect(await trayIsShown('linux', { PATH: join(noBus, '..') })).toBe(false)
  })
})

describe('where the quick prompt may go', () => {
  it('follows the pointer and stays on top everywhere but a native Wayland session', () => {
    expect(quickPlacement('darwin', { XDG_SESSION_TYPE: 'wayland' }, '')).toEqual({ followsPointer: true, staysOnTop: true })
    expect(quickPlacement('linux', { XDG_SESSION_TYPE: 'x11' }, '')).toEqual({ followsPointer: true, staysOnTop: true })
    expect(quickPlacement('linux', { XDG_SESSION_TYPE: 'wayland' }, '')).toEqual({ followsPointer: false, staysOnTop: false })
    expect(quickPlacement('linux', { WAYLAND_DISPLAY: 'wayland-0' }, '')).toEqual({ followsPointer: false, staysOnTop: false })
    expect(quickPlacement('linux', { XDG_SESSION_TYPE: 'wayland' }, 'x11')).toEqual({ followsPointer: true, staysOnTop: true })
  })
})
