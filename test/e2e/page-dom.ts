/**
 * The few browser globals the e2e helpers read inside `page.evaluate` callbacks. The node tsconfig
 * has no DOM library (adding it would leak browser globals into the core's type checking), so the
 * callbacks cast `globalThis` to this shape. Types only: nothing here exists at run time.
 */
export interface PageRect {
  left: number
  top: number
  right: number
  width: number
  height: number
}

export interface PageElement {
  tagName: string
  classList: Iterable<string>
  textContent: string | null
  parentElement: PageElement | null
  childNodes: Iterable<{ nodeType: number; textContent: string | null }>
  querySelectorAll(selector: string): Iterable<PageElement>
  getBoundingClientRect(): PageRect
  contains(other: PageElement | null): boolean
}

export interface PageDom {
  document: {
    documentElement: PageElement & { clientWidth: number; scrollWidth: number; dataset: Record<string, string | undefined> }
    querySelector(selector: string): PageElement | null
    querySelectorAll(selector: string): Iterable<PageElement>
    elementFromPoint(x: number, y: number): PageElement | null
  }
  getComputedStyle(element: PageElement): { overflowX: string }
  /** Set by an injected `onerror` if raw HTML were ever rendered (it must stay undefined). */
  __pwned?: number
}
