/** The part of Electron's globalShortcut used here (injected, so this logic is tested without Electron). */
export interface GlobalShortcuts {
  register(accelerator: string, callback: () => void): boolean
  unregister(accelerator: string): void
}

export interface ShortcutStatus {
  /** The accelerator that works now, or null. */
  active: string | null
  /** What went wrong with the requested one, in English words for the log; null when all is well. */
  problem: string | null
  /** The same as data, for the tray to word in the user's language. */
  refusal?: ShortcutRefusal
}

/** A requested accelerator the system refused: another app owns it (`taken`) or it does not parse (`invalid`). */
export interface ShortcutRefusal {
  requested: string
  reason: 'taken' | 'invalid'
  /** The previous accelerator, still registered; null when none works now. */
  kept: string | null
}

const refusalWords: Record<ShortcutRefusal['reason'], string> = {
  taken: 'is taken by another application',
  invalid: 'is not a valid shortcut (example: CommandOrControl+Shift+Space)'
}

/**
 * The configurable global shortcut that toggles the quick prompt (`ui.shortcut`). Applying a new
 * accelerator swaps registrations; when the system refuses it (another app owns it, or it is not a
 * valid accelerator) the previous one is kept if it still works, and the status says what happened.
 */
export class QuickPromptShortcut {
  private active: string | null = null
  private status: ShortcutStatus = { active: null, problem: null }

  constructor(
    private readonly shortcuts: GlobalShortcuts,
    private readonly onPress: () => void
  ) {}

  apply(requested: string): ShortcutStatus {
    const wanted = requested.trim()
    if (wanted === this.active && !this.status.problem) return this.status
    const previous = this.active
    if (previous) this.release(previous)
    if (!wanted) return this.set(null, null)
    const refusal = this.tryRegister(wanted)
    if (!refusal) return this.set(wanted, null)
    const kept = previous && previous !== wanted && !this.tryRegister(previous) ? previous : null
    const keptText = kept ? ` Cairn kept ${kept}.` : ' Choose another one in Settings.'
    return this.set(kept, `The quick prompt shortcut ${wanted} ${refusalWords[refusal]}.${keptText}`, { requested: wanted, reason: refusal, kept })
  }

  current(): ShortcutStatus {
    return this.status
  }

  dispose(): void {
    if (this.active) this.release(this.active)
    this.set(null, null)
  }

  /** Null on success, else why it failed. */
  private tryRegister(accelerator: string): ShortcutRefusal['reason'] | null {
    try {
      return this.shortcuts.register(accelerator, this.onPress) ? null : 'taken'
    } catch {
      return 'invalid'
    }
  }

  private release(accelerator: string): void {
    try {
      this.shortcuts.unregister(accelerator)
    } catch {
      // Unregistering something Electron does not know is harmless.
    }
    this.active = null
  }

  private set(active: string | null, problem: string | null, refusal?: ShortcutRefusal): ShortcutStatus {
    this.active = active
    this.status = refusal ? { active, problem, refusal } : { active, problem }
    return this.status
  }
}
