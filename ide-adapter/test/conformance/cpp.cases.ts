/**
 * The C++ row of the conformance table (fixtures/cpp-app: namespaces, overloads, a template, a
 * class hierarchy with overrides, headers with out-of-class definitions), answered by clangd
 * with the fixture's compilation database (written at copy time: its `directory` must be absolute).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { LanguageConformance } from '../support/conformance-table.js';
import { writeCompileCommands } from '../support/clangd.js';

/** The fixture's translation units and flags, as its CMakeLists.txt builds them. */
export const CPP_APP_SOURCES = ['src/main.cpp', 'src/shape.cpp', 'src/math.cpp'] as const;
export const CPP_APP_FLAGS = ['-std=c++17', '-Iinclude'] as const;

/** A file with a deliberate error, written into the copy. */
const BROKEN = 'int broken() { return undeclared_value; }\n';

export const cppConformance: LanguageConformance = {
  language: 'C++',
  fixture: 'cpp-app',
  prepare: async (root) => {
    await writeCompileCommands(root, CPP_APP_SOURCES, CPP_APP_FLAGS);
    await writeFile(join(root, 'src', 'broken.cpp'), BROKEN);
  },
  cases: {
    definitionByName: { name: 'clamp', expect: { name: 'clamp', kind: 'function', at: { file: 'include/geo/math.h', needle: 'clamp(' } } },
    // Declared in the class in the header, defined out of class in the source: one definition, shown at its body.
    definitionByQualifiedName: { name: 'geo::Circle::area', expect: { name: 'area', kind: 'method', at: { file: 'src/shape.cpp', needle: 'area() const {' } } },
    // The base's pure virtual method and each override are separate definitions.
    ambiguity: {
      program: 'findDefinition("area")',
      candidates: [
        { file: 'include/geo/shape.h', needle: 'area() const = 0' },
        { file: 'src/shape.cpp', needle: 'area() const {' },
        { file: 'src/shape.cpp', needle: 'area() const {', nth: 1 },
      ],
    },
    referencesAtName: {
      of: 'findDefinition("geo::Shape")',
      includes: [
        { file: 'src/main.cpp', needle: 'Shape &first' },
        { file: 'include/geo/shape.h', needle: 'Shape {', nth: 1 },
      ],
    },
    hover: { of: '"geo::math::clamp"', signature: 'T clamp(T value, T low, T high)', documentation: 'Limits a value to the range' },
    outline: { file: 'src/shape.cpp', names: ['geo', 'label', 'Circle', 'area'] },
    // Its subclasses, not its constructors.
    implementations: { of: '"geo::Shape"', names: ['Circle', 'Square'] },
    callers: { of: '"Shape::area"', include: [{ name: 'total_area', at: { file: 'src/main.cpp', needle: 'total_area(const' } }] },
    callees: {
      exception: 'clangd 19 has no outgoing calls (added in clangd 20): the answer names lines(symbol) and callers instead',
      program: 'callees("total_area")',
      code: 'unsupported-by-server',
    },
    typeDefinition: { of: 'findDefinition("unit_square")', expect: { name: 'Square', kind: 'class', at: { file: 'include/geo/shape.h', needle: 'Square :' } } },
    // The type name in a declaration is the type, not the variable declared.
    symbolAt: { at: { file: 'src/main.cpp', needle: 'Shape &second' }, name: 'Shape', kind: 'class' },
    diagnostics: { at: { file: 'src/broken.cpp', needle: 'undeclared_value' }, severity: 'error', message: "undeclared identifier 'undeclared_value'" },
    lines: { of: '"geo::Circle::area"', contains: 'radius_ * radius_' },
  },
};
