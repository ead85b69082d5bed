/**
 * Walkthroughs: markdown with code comments, actions, diagrams and diffs, resolved against a
 * workspace and rendered as one safe, self-contained page (plus JSON and an agent summary).
 *
 *     const doc = parseWalkthrough(markdown);                       // never throws
 *     const resolved = await resolveWalkthrough(doc, environmentFor(session), { signal });
 *     const html = renderWalkthroughHtml(resolved);                 // or walkthroughToJson / summarizeWalkthrough
 */
export { parseWalkthrough } from './parse.js';
export { resolveWalkthrough, describeLink, CommentErrorCode, type ResolveOptions } from './resolve.js';
export { renderWalkthroughHtml, PAGE_MARK, contentSecurityPolicy, createNonce, type RenderHtmlOptions, type WebviewAssets } from './render-html.js';
export { walkthroughToJson, WALKTHROUGH_JSON_VERSION, type CommentJson, type WalkthroughJson } from './json.js';
export { summarizeWalkthrough } from './summary.js';
export {
  loadWalkthroughFile, parseWithinLimits, renderResolved, renderWalkthrough, renderWalkthroughDocument, type LoadedWalkthrough, type RenderWalkthroughOptions, type RenderedWalkthrough,
} from './file.js';
export { environmentFor, type WalkthroughSession } from './environment.js';
export type { GitDiffRequest, WalkthroughEnvironment } from './environment-types.js';
export { WalkthroughError, WalkthroughErrorCode, WarningCode } from './errors.js';
export { WALKTHROUGH_CODE_DOCS, type WalkthroughCode } from './codes.js';
export { checkResolvedSize, DEFAULT_WALKTHROUGH_LIMITS, walkthroughLimits, type WalkthroughLimits } from './limits.js';
export { DEFAULT_ICON, ICON_NAMES, iconEmoji, iconSvg, pageIcon, type IconDrawing, type PageIcon } from './icons.js';
export { ELEMENT_NAMES, ELEMENT_SYNTAX } from './elements.js';
export { parseFileHref } from './links.js';
export { formatCodeLocation } from './locations.js';
export { mermaidPath } from './assets.js';
export type {
  ActionElement, CodeLocation, CommentElement, CommentResolution, CommentStatus, ElementForm, ElementKind, FileLink, GitDiffElement, LocationChoice,
  MermaidElement, ResolvedComment, ResolvedDiff, ResolvedLink, ResolvedWalkthrough, WalkthroughDocument, WalkthroughElement, WalkthroughWarning,
} from './model.js';
