/**
 * JavaScript's row of the conformance table (support/conformance-table.ts): fixtures/js-plain, a
 * plain CommonJS package without jsconfig (members assigned to objects and prototypes, classes in
 * lib/errors.js), with a file holding a syntax error added to the copy. Answered by the spawned
 * tsgo (conformance-javascript.test.ts) and by VS Code's own JavaScript features
 * (vscode/test/conformance.test.ts), which must give the same answers.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { LanguageConformance } from '../support/conformance-table.js';

/** A file added to the js-plain copy with a deliberate syntax error (plain JavaScript has no type errors). */
const BROKEN_FILE = 'lib/broken.js';
/** Its text: the initializer is missing. */
const BROKEN_TEXT = "'use strict';\n\nvar answer = ;\n";

/** The JavaScript cases. */
export const javaScriptConformance: LanguageConformance = {
  language: 'JavaScript',
  fixture: 'js-plain',
  prepare: (root) => writeFile(join(root, BROKEN_FILE), BROKEN_TEXT),
  backendDifferences: {
    hover: "VS Code's TypeScript (tsserver) adds the CommonJS export to an exported function's signature (`module createApp`); tsgo shows the function alone",
    symbolAt: "VS Code's TypeScript (tsserver) calls a constructor function with prototype members (`function View`, `View.prototype.lookup = …`) a class; tsgo a function",
  },
  cases: {
    definitionByName: { name: 'createApp', expect: { name: 'createApp', kind: 'function', at: { file: 'lib/application.js', needle: 'createApp(options)' } } },
    definitionByQualifiedName: { name: 'View.prototype.lookup', expect: { name: 'lookup', kind: 'method', at: { file: 'lib/view.js', needle: 'lookup = function' } } },
    ambiguity: {
      program: 'findDefinition("render")',
      candidates: [
        { file: 'lib/application.js', needle: 'render = function' },
        { file: 'lib/response.js', needle: 'render = function' },
        { file: 'lib/view.js', needle: 'render = function' },
      ],
    },
    referencesAtName: {
      of: 'findDefinition("createApp")',
      includes: [
        { file: 'test/app.test.js', needle: 'createApp({ strict' },
        { file: 'bin/serve.js', needle: 'createApp({ port' },
        { file: 'lib/index.js', needle: 'createApp;' },
      ],
    },
    hover: { of: 'findDefinition("createApp")', signature: 'function createApp(options', documentation: 'Makes an app that renders views.' },
    outline: { file: 'lib/response.js', names: ['res', 'send', 'json', 'render'] },
    implementations: { of: '"HttpError"', names: ['HttpError', 'NotFoundError'] },
    callers: {
      of: 'findDefinition("View", file: "lib/view.js")',
      include: [{ name: 'render', at: { file: 'lib/application.js', needle: 'render(name)' } }],
    },
    callees: { of: 'findDefinition("missingView")', include: ['NotFoundError'] },
    typeDefinition: { of: 'findDefinition("error")', expect: { name: 'NotFoundError', kind: 'class', at: { file: 'lib/errors.js', needle: 'NotFoundError extends' } } },
    symbolAt: { at: { file: 'examples/views/index.js', needle: "View('page')" }, name: 'View' },
    diagnostics: { at: { file: BROKEN_FILE, needle: ';', nth: 1 }, severity: 'error', message: 'Expression expected' },
    lines: { of: '"res.send"', contains: 'this.body = body;' },
  },
};
