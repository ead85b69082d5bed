// The walkthrough page's behaviour. Inlined into every page with the page's CSP nonce; it reads
// the walkthrough model from the JSON data element 
// server-rendered markup through classes and data-* attributes. It never builds HTML from strings
// except mermaid's sanitized SVG, and never uses inline event handlers.
(function () {
  'use strict';

  var root = document.documentElement;
  var script = document.currentScript;
  var nonce = script && script.nonce ? script.nonce : '';
  var data = readData();

  function readData() {
    var element = document.getElementById('wt-data');
    try {
      return JSON.parse(element ? element.textContent || '{}' : '{}');
    } catch (error) {
      return {};
    }
  }

  function byId(list, id) {
    for (var i = 0; list && i < list.length; i++) if (list[i].id === id) return list[i];
    return undefined;
  }

  // ---------------------------------------------------------------------------------------------
  // The host: a VS Code webview, a page embedding us in an iframe, or none (a plain browser tab).
  //
  // Messages carry what the reader does and code from the workspace, so they go to the host and
  // nobody else — never to '*', which hands them to whatever page frames the walkthrough:
  // - a VS Code webview: through its API (no origin involved);
  // - a parent page of our own origin (a same-origin or srcdoc frame): to '/', our origin exactly;
  // - a parent page of the origin the page was rendered for (`hostOrigin`, `data-host-origin`):
  //   to that origin, so the browser drops the message should the parent be anything else;
  // - any other parent (another site, a file:// page: opaque origins cannot be addressed) and no
  //   parent at all: nothing is posted; actions are copied to the clipboard instead.

  var vscode = typeof acquireVsCodeApi === 'function' ? acquireVsCodeApi() : undefined; // eslint-disable-line no-undef
  var hostOrigin = root.getAttribute('data-host-origin') || '';

  /** Whether the parent document is of our origin (reading its location throws when it is not). */
  function parentIsSameOrigin() {
    try {
      return typeof window.parent.location.href === 'string';
    } catch (error) {
      return false;
    }
  }

  /** The parent's origin when the browser tells (Chromium, WebKit), else undefined. */
  function parentOrigin() {
    var ancestors = window.location.ancestorOrigins;
    return ancestors && ancestors.length > 0 ? ancestors[0] : undefined;
  }

  /** The targetOrigin to post to the parent with, or null when the parent is not our host. */
  function parentTarget() {
    if (!window.parent || window.parent === window) return null;
    if (parentIsSameOrigin()) return '/';
    if (hostOrigin === '') return null;
    var actual = parentOrigin();
    return actual === undefined || actual === hostOrigin ? hostOrigin : null;
  }

  /** Sends a message to the host; false when there is none. */
  function post(message) {
    message.source = 'dialect-walkthrough';
    if (vscode) {
      vscode.postMessage(message);
      return true;
    }
    var target = parentTarget();
    if (target === null) return false;
    window.parent.postMessage(message, target);
    return true;
  }

  function copyText(text) {
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(text).then(
        function () { return true; },
        function () { return copyWithSelection(text); },
      );
    }
    return Promise.resolve(copyWithSelection(text));
  }

  function copyWithSelection(text) {
    var area = document.createElement('textarea');
    area.className = 'wt-offscreen';
    area.value = text;
    area.setAttribute('readonly', '');
    document.body.appendChild(area);
    area.select();
    var ok = false;
    try {
      ok = document.execCommand('copy');
    } catch (error) {
      ok = false;
    }
    area.remove();
    return ok;
  }

  var toastTimers = new WeakMap();

  function toast(element, text) {
    if (!element) return;
    element.textContent = text;
    element.hidden = false;
    clearTimeout(toastTimers.get(element));
    toastTimers.set(element, setTimeout(function () { element.hidden = true; }, 6000));
  }

  // ---------------------------------------------------------------------------------------------
  // Theme: follows the system until the reader toggles it.

  var THEME_KEY = 'dialect-walkthrough-theme';

  function storedTheme() {
    try {
      return localStorage.getItem(THEME_KEY);
    } catch (error) {
      return null;
    }
  }

  function effectiveTheme() {
    var theme = root.getAttribute('data-theme');
    if (theme === 'dark' || theme === 'light') return theme;
    return window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  }

  function updateThemeButton() {
    var button = document.querySelector('.wt-theme-toggle');
    if (!button) return;
    var dark = effectiveTheme() === 'dark';
    button.textContent = dark ? '☀ Light' : '☾ Dark';
    button.setAttribute('aria-label', dark ? 'Switch to the light theme' : 'Switch to the dark theme');
  }

  function setTheme(theme) {
    root.setAttribute('data-theme', theme);
    try {
      localStorage.setItem(THEME_KEY, theme);
    } catch (error) {
      // Storage may be unavailable (file://, sandboxed webviews): the choice lasts for this page.
    }
    updateThemeButton();
    renderDiagrams();
  }

  var saved = storedTheme();
  if (saved === 'dark' || saved === 'light') root.setAttribute('data-theme', saved);
  updateThemeButton();
  if (window.matchMedia) {
    var query = window.matchMedia('(prefers-color-scheme: dark)');
    var onSchemeChange = function () {
      if (root.getAttribute('data-theme') === 'auto') {
        updateThemeButton();
        renderDiagrams();
      }
    };
    if (query.addEventListener) query.addEventListener('change', onSchemeChange);
  }

  // ---------------------------------------------------------------------------------------------
  // Comments: reveal the code context; ambiguous ones are placed by choosing a location.

  function commentOf(element) {
    return element.closest('.wt-comment');
  }

  function commentData(comment) {
    return byId(data.comments, comment.getAttribute('data-comment'));
  }

  /** The index of the placed choice of an ambiguous comment, or null (resolved: 'single'). */
  function placement(comment) {
    if (comment.classList.contains('wt-resolved')) return 'single';
    if (!comment.classList.contains('wt-ambiguous')) return null;
    var placed = comment.getAttribute('data-placed');
    return placed === null ? null : placed;
  }

  function activeContext(comment, place) {
    var contexts = comment.querySelectorAll(':scope > .wt-context');
    for (var i = 0; i < contexts.length; i++) {
      var choice = contexts[i].getAttribute('data-choice');
      if (place === 'single' ? choice === null : choice === place) return contexts[i];
    }
    return null;
  }

  function activeLocationButton(comment, place) {
    var buttons = comment.querySelectorAll(':scope > .wt-comment-head > .wt-loc');
    for (var i = 0; i < buttons.length; i++) {
      var choice = buttons[i].getAttribute('data-choice');
      if (place === 'single' ? choice === null : choice === place) return buttons[i];
    }
    return null;
  }

  function locationOf(comment, place) {
    var model = commentData(comment);
    if (!model || !model.locations) return undefined;
    return model.locations[place === 'single' ? 0 : Number(place)];
  }

  function toggleContext(comment, open) {
    var place = placement(comment);
    if (place === null) {
      if (comment.classList.contains('wt-ambiguous')) showChoices(comment);
      return;
    }
    var context = activeContext(comment, place);
    if (!context) return;
    var show = open === undefined ? context.hidden : open;
    context.hidden = !show;
    comment.classList.toggle('wt-open', show);
    var button = activeLocationButton(comment, place);
    if (button) button.setAttribute('aria-expanded', show ? 'true' : 'false');
    if (show) post({ type: 'revealComment', comment: comment.getAttribute('data-comment'), location: locationOf(comment, place) });
  }

  function hideContexts(comment) {
    var contexts = comment.querySelectorAll(':scope > .wt-context');
    for (var i = 0; i < contexts.length; i++) contexts[i].hidden = true;
    comment.classList.remove('wt-open');
  }

  // Choices start open (server-rendered) for ambiguous comments: a choice is needed to place them.
  function showChoices(comment) {
    var choices = comment.querySelector(':scope > .wt-choices');
    if (!choices) return;
    hideContexts(comment);
    choices.hidden = false;
    var first = choices.querySelector('.wt-choice');
    if (first) first.focus();
  }

  function choose(comment, index, fromHost) {
    comment.setAttribute('data-placed', String(index));
    comment.classList.add('wt-placed');
    var choices = comment.querySelector(':scope > .wt-choices');
    if (choices) choices.hidden = true;
    var badge = comment.querySelector(':scope > .wt-comment-head > .wt-badge-ambiguous');
    if (badge) badge.hidden = true;
    var buttons = comment.querySelectorAll(':scope > .wt-comment-head > .wt-loc');
    for (var i = 0; i < buttons.length; i++) buttons[i].hidden = buttons[i].getAttribute('data-choice') !== String(index);
    var magnifier = comment.querySelector(':scope > .wt-comment-head > .wt-magnifier');
    if (magnifier) magnifier.hidden = false;
    hideContexts(comment);
    var model = commentData(comment);
    var choice = model && model.choices ? model.choices[index] : undefined;
    updateCounts();
    if (!fromHost) post({ type: 'placeComment', comment: comment.getAttribute('data-comment'), choice: index, location: choice ? choice.location : undefined, program: choice ? choice.program : undefined });
    toggleContext(comment, !fromHost);
  }

  /** The header's counts once the reader has placed ambiguous comments. */
  function updateCounts() {
    var total = document.querySelectorAll('.wt-comment').length;
    var placed = document.querySelectorAll('.wt-comment.wt-resolved, .wt-comment.wt-ambiguous.wt-placed').length;
    var open = document.querySelectorAll('.wt-comment.wt-ambiguous:not(.wt-placed)').length;
    var resolvedCount = document.querySelector('.wt-count-resolved');
    if (resolvedCount) resolvedCount.textContent = placed + ' of ' + total + ' comment' + (total === 1 ? '' : 's') + ' placed';
    var ambiguousCount = document.querySelector('.wt-count-ambiguous');
    if (ambiguousCount) {
      ambiguousCount.textContent = open + ' ambiguous';
      ambiguousCount.hidden = open === 0;
    }
  }

  // ---------------------------------------------------------------------------------------------
  // Actions and file links: to the host, or to the clipboard with a visible confirmation.

  function runAction(button) {
    var action = byId(data.actions, button.getAttribute('data-action'));
    if (!action) return;
    var note = button.parentElement ? button.parentElement.querySelector('.wt-toast') : null;
    if (post({ type: 'action', action: action.id, button: action.button, message: action.message })) {
      toast(note, 'Sent to the agent.');
      return;
    }
    copyText(action.message).then(function (ok) {
      toast(note, ok ? 'Copied to the clipboard: paste it into your agent’s chat.' : 'Could not copy. The message is: ' + action.message);
    });
  }

  function openLink(link) {
    var path = link.getAttribute('data-path');
    var line = link.getAttribute('data-line');
    var message = { type: 'openLocation', path: path };
    if (line) message.line = Number(line);
    var end = link.getAttribute('data-end-line');
    if (end) message.endLine = Number(end);
    var column = link.getAttribute('data-column');
    if (column) message.column = Number(column);
    var where = line ? path + ':' + line : path;
    var note = document.querySelector('.wt-global-toast');
    if (post(message)) return;
    copyText(where).then(function (ok) {
      toast(note, ok ? 'Copied ' + where + ' to the clipboard.' : where);
    });
  }

  function toggleCollapsible(button) {
    var target = button.nextElementSibling;
    if (!target || !target.classList.contains('wt-collapsible')) return;
    target.hidden = !target.hidden;
    button.setAttribute('aria-expanded', target.hidden ? 'false' : 'true');
  }

  document.addEventListener('click', function (event) {
    var target = event.target instanceof Element ? event.target : null;
    if (!target) return;
    var hit;
    if ((hit = target.closest('.wt-theme-toggle'))) return setTheme(effectiveTheme() === 'dark' ? 'light' : 'dark');
    if ((hit = target.closest('.wt-choice'))) return choose(commentOf(hit), Number(hit.getAttribute('data-choice')));
    if ((hit = target.closest('.wt-magnifier'))) return showChoices(commentOf(hit));
    if ((hit = target.closest('.wt-loc'))) return toggleContext(commentOf(hit));
    if ((hit = target.closest('.wt-action-button'))) return runAction(hit);
    if ((hit = target.closest('.wt-toggle'))) return toggleCollapsible(hit);
    if ((hit = target.closest('.wt-file-link'))) {
      event.preventDefault();
      return openLink(hit);
    }
    if (target.closest('a, button, .wt-context, .wt-choices')) return;
    var comment = target.closest('.wt-comment');
    var selection = window.getSelection ? String(window.getSelection()) : '';
    if (comment && selection === '') toggleContext(comment);
  });

  document.addEventListener('keydown', function (event) {
    if (event.key !== 'Enter' && event.key !== ' ') return;
    var target = event.target instanceof Element ? event.target.closest('.wt-file-link') : null;
    if (!target) return;
    event.preventDefault();
    openLink(target);
  });

  // ---------------------------------------------------------------------------------------------
  // Mermaid: rendered here, in the page's theme, with securityLevel 'strict'.
  //
  // The CSP allows <style> elements only with our nonce. Mermaid adds one <style> per diagram,
  // both while it lays the diagram out and in the SVG it returns, so: while it renders, the
  // <style> elements it creates get the nonce (its layout is measured with its styles applied),
  // and the <style> at the top of the returned SVG gets the nonce before the SVG is inserted.
  // Only that one: any other <style> in the output stays blocked.

  var renderCounter = 0;
  var renderChain = Promise.resolve();

  function withNonceOnStyles(run) {
    var original = Document.prototype.createElement;
    Document.prototype.createElement = function (name, options) {
      var element = original.call(this, name, options);
      if (String(name).toLowerCase() === 'style' && nonce) element.setAttribute('nonce', nonce);
      return element;
    };
    var restore = function () { Document.prototype.createElement = original; };
    try {
      return Promise.resolve(run()).then(
        function (value) { restore(); return value; },
        function (error) { restore(); throw error; },
      );
    } catch (error) {
      restore();
      return Promise.reject(error);
    }
  }

  // Mermaid's SVG is not trusted: mermaid sanitizes diagram labels itself, but its whole output
  // passes through DOMPurify (inlined next to mermaid) before it is inserted, so the CSP is a
  // second wall, not the only one. The allow-list is DOMPurify's SVG and HTML profiles, plus
  // <foreignObject> as an HTML integration point (mermaid writes labels as HTML in it); SMIL
  // (animate, set), use and script elements stay out. Then the page's own rule: it loads nothing
  // and navigates nowhere, so images, embeds and links other than in-page anchors go too.
  var PURIFY = {
    USE_PROFILES: { svg: true, svgFilters: true, html: true },
    ADD_TAGS: ['foreignObject'],
    HTML_INTEGRATION_POINTS: { foreignobject: true },
    RETURN_DOM_FRAGMENT: true,
  };
  var REMOVED = 'script, iframe, object, embed, img, image, video, audio, source, link, meta, base, form';

  /** The sanitized SVG as a fragment, or null when there is no sanitizer to pass it through. */
  function sanitizeSvg(svg) {
    if (typeof DOMPurify === 'undefined' || !DOMPurify.isSupported) return null; // eslint-disable-line no-undef
    var content = DOMPurify.sanitize(svg, PURIFY); // eslint-disable-line no-undef
    Array.prototype.forEach.call(content.querySelectorAll(REMOVED), function (element) { element.remove(); });
    Array.prototype.forEach.call(content.querySelectorAll('*'), function (element) {
      Array.prototype.slice.call(element.attributes).forEach(function (attribute) {
        var name = attribute.name.toLowerCase();
        var isLink = name === 'href' || name === 'xlink:href' || name === 'src' || name === 'action' || name === 'formaction';
        if (name.indexOf('on') === 0 || (isLink && !/^#/.test(attribute.value.trim()))) element.removeAttribute(attribute.name);
      });
    });
    // The <style> mermaid puts first in its SVG gets the nonce; any other <style> stays blocked.
    var top = content.firstElementChild;
    var first = top && top.localName === 'svg' ? top.firstElementChild : null;
    if (first && first.localName === 'style') first.setAttribute('nonce', nonce);
    return content;
  }

  function insertSvg(output, svg) {
    var content = sanitizeSvg(svg);
    if (content === null) throw new Error('the diagram sanitizer (DOMPurify) is missing from the page');
    output.replaceChildren(content);
  }

  function renderDiagram(element, theme) {
    var model = byId(data.diagrams, element.getAttribute('data-diagram'));
    var output = element.querySelector('.wt-mermaid-output');
    if (!model || !output) return Promise.resolve();
    var id = 'wt-svg-' + ++renderCounter;
    return withNonceOnStyles(function () { return mermaid.render(id, model.source); }) // eslint-disable-line no-undef
      .then(function (result) {
        insertSvg(output, result.svg);
        element.classList.remove('wt-mermaid-failed');
        element.classList.add('wt-mermaid-rendered');
        element.setAttribute('data-theme-rendered', theme);
      })
      .catch(function (error) {
        var leftover = document.getElementById('d' + id);
        if (leftover) leftover.remove();
        var message = document.createElement('span');
        message.className = 'wt-error-text';
        message.textContent = 'This diagram could not be drawn: ' + (error && error.message ? error.message : String(error));
        var box = document.createElement('span');
        box.className = 'wt-error';
        box.appendChild(message);
        output.replaceChildren(box);
        element.classList.add('wt-mermaid-failed');
      });
  }

  function renderDiagrams() {
    var elements = document.querySelectorAll('.wt-mermaid[data-diagram]');
    if (elements.length === 0 || typeof mermaid === 'undefined') { // eslint-disable-line no-undef
      root.setAttribute('data-mermaid', elements.length === 0 ? 'none' : 'unavailable');
      return renderChain;
    }
    root.setAttribute('data-mermaid', 'rendering');
    var theme = effectiveTheme();
    renderChain = renderChain.then(function () {
      mermaid.initialize({ startOnLoad: false, securityLevel: 'strict', theme: theme === 'dark' ? 'dark' : 'default', suppressErrorRendering: true }); // eslint-disable-line no-undef
      var chain = Promise.resolve();
      Array.prototype.forEach.call(elements, function (element) {
        chain = chain.then(function () { return renderDiagram(element, theme); });
      });
      return chain;
    }).then(function () {
      root.setAttribute('data-mermaid', 'done');
    }, function () {
      root.setAttribute('data-mermaid', 'done');
    });
    return renderChain;
  }

  // ---------------------------------------------------------------------------------------------
  // Inside VS Code: the editor's theme, the scroll position across re-renders, and what the
  // extension tells the page (a location chosen in the editor's Quick Pick).

  if (vscode) {
    var body = document.body.classList;
    var themeButton = document.querySelector('.wt-theme-toggle');
    if (themeButton) themeButton.hidden = true;
    root.setAttribute('data-theme', body.contains('vscode-light') || body.contains('vscode-high-contrast-light') ? 'light' : 'dark');
    // The scroll position survives the panel re-rendering when comments move (living walkthroughs).
    var keepsState = typeof vscode.getState === 'function' && typeof vscode.setState === 'function';
    var state = (keepsState && vscode.getState()) || {};
    if (typeof state.scrollY === 'number') window.scrollTo(0, state.scrollY);
    var scrollTimer;
    window.addEventListener('scroll', function () {
      if (!keepsState) return;
      clearTimeout(scrollTimer);
      scrollTimer = setTimeout(function () { vscode.setState({ scrollY: window.scrollY }); }, 100);
    });
    window.addEventListener('message', function (event) {
      var message = event.data;
      if (!message || message.source !== 'dialect-extension') return;
      if (message.type === 'placed' && typeof message.comment === 'string' && typeof message.choice === 'number') {
        var target = document.querySelector('.wt-comment[data-comment="' + message.comment.replace(/[^a-z0-9-]/gi, '') + '"]');
        if (target && target.classList.contains('wt-ambiguous')) choose(target, message.choice, true);
      }
    });
  }

  renderDiagrams();
  root.setAttribute('data-ready', 'true');
  // A webview reloads when it is shown again: the host re-sends what the reader had chosen.
  if (vscode) post({ type: 'ready' });
})();
