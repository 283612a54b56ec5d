/** What test/chromium/zulip-markdown-cases.test.ts hands the page (zulip-cases-page.ts) and gets back; DOM-free, for both sides. */
export interface HtmlCase {
  readonly name: string;
  readonly html: string;
}

export interface CaseReport {
  readonly name: string;
  readonly features: string[];
  /** The output equals the server's HTML (what the app adds to links and code blocks aside). */
  readonly unchanged: boolean;
  readonly failures: string[];
}

/** The page's entry point, on `globalThis`. */
export type CheckCases = (cases: readonly HtmlCase[]) => CaseReport[];
export const CHECK_CASES = 'checkZulipCases';
