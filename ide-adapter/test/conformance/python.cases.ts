/**
 * Python's row of the conformance table (`support/conformance-table.ts`), on `fixtures/py-app`: a
 * `src/` layout package whose `__init__.py` re-exports its classes, relative imports, three classes
 * sharing the method `area`, tests outside the package, and an import of a package that is not
 * installed (`requests`).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { LanguageConformance } from '../support/conformance-table.js';

/** A file with a deliberate error, written into the fixture copy before pyright starts. */
const BROKEN = 'src/shapes/broken.py';

/** The Python table. */
export const pythonConformance: LanguageConformance = {
  language: 'Python',
  fixture: 'py-app',
  prepare: (root) => writeFile(join(root, BROKEN), 'def broken() -> int:\n    return undefined_name\n'),
  cases: {
    definitionByName: { name: 'total_area', expect: { name: 'total_area', kind: 'function', at: { file: 'src/shapes/render.py', needle: 'total_area(shapes' } } },
    definitionByQualifiedName: {
      name: 'shapes.circle.Circle.area',
      expect: { name: 'area', kind: 'method', at: { file: 'src/shapes/circle.py', needle: 'area(self)' } },
    },
    ambiguity: {
      program: 'findDefinition("area")',
      candidates: [
        { file: 'src/shapes/base.py', needle: 'area(self)' },
        { file: 'src/shapes/circle.py', needle: 'area(self)' },
        { file: 'src/shapes/square.py', needle: 'area(self)' },
      ],
    },
    referencesAtName: {
      of: 'findDefinition("Circle")',
      includes: [
        // The re-export in the package's __init__.py, and a use through it in the tests.
        { file: 'src/shapes/__init__.py', needle: 'Circle' },
        { file: 'tests/test_shapes.py', needle: 'Circle(1.0)' },
        { file: 'src/shapes/render.py', needle: 'Circle(1.0)' },
      ],
    },
    hover: { of: 'findDefinition("Shape.describe")', signature: 'def describe(self', documentation: 'A one-line description' },
    outline: { file: 'src/shapes/circle.py', names: ['Circle', '__init__', 'area'] },
    implementations: { of: 'findDefinition("Shape")', names: ['Circle', 'Square'] },
    callers: {
      of: 'findDefinition("render")',
      include: [
        { name: 'publish', at: { file: 'src/shapes/remote.py', needle: 'publish(url' } },
        { name: 'test_render', at: { file: 'tests/test_shapes.py', needle: 'test_render' } },
      ],
    },
    callees: { of: 'findDefinition("total_area")', include: ['area'] },
    typeDefinition: { of: 'findDefinition("DEFAULT_SHAPE")', expect: { name: 'Circle', kind: 'class', at: { file: 'src/shapes/circle.py', needle: 'Circle(Shape)' } } },
    symbolAt: { at: { file: 'src/shapes/render.py', needle: 'describe()' }, name: 'describe', kind: 'method' },
    diagnostics: { at: { file: BROKEN, needle: 'undefined_name' }, severity: 'error', message: '"undefined_name" is not defined' },
    lines: { of: 'findDefinition("Square.area")', contains: 'return self.side * self.side' },
  },
};
