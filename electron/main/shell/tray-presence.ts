import { execFile } from 'node:child_process'

/**
 * Whether a tray icon is really shown. macOS and Windows always show one. On Linux, Electron's tray
 * is a StatusNotifierItem: it appears only where a StatusNotifierWatcher runs on the session bus
 * (KDE, most desktops; GNOME only with the AppIndicator extension). Elsewhere `new Tray()` succeeds
 * and nothing appears, and an app that hid its window "to the tray" would be left running unseen.
 * When the bus cannot be asked, the answer is no: closing the window then quits, which is safe.
 */
export async function trayIsShown(platform: NodeJS.Platform, env: NodeJS.ProcessEnv = process.env): Promise<boolean> {
  if (platform !== 'linux') return true
  const asks: Array<[string, string[], RegExp]> = [
    [
      'dbus-send',
      ['--session', '--dest=org.freedesktop.DBus', '--type=method_call', '--print-reply', '/org/freedesktop/DBus', 'org.freedesktop.DBus.NameHasOwner', 'string:org.kde.StatusNotifierWatcher'],
      /\bboolean\s+true\b/
    ],
    [
      'gdbus',
      ['call', '--session', '--dest', 'org.freedesktop.DBus', '--object-path', '/org/freedesktop/DBus', '--method', 'org.freedesktop.DBus.NameHasOwner', 'org.kde.StatusNotifierWatcher'],
      /\(true,\)/
    ]
  ]
  for (const [command, args, yes] of asks) {
    const answer = await ask(command, args, env)
    if (answer !== null) return yes.test(answer)
  }
  return false
}

/** A command's output, or null when it could not run or failed. */
function ask(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<string | null> {
  return new Promise((resolve) => {
    execFile(command, args, { env, timeout: 2_000, encoding: 'utf8' }, (error, stdout) => resolve(error ? null : stdout))
  })
}
