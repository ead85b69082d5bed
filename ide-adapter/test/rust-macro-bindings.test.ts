/**
 * Reading a Rust macro expansion (pure logic: the text rust-analyzer's `expandMacro` answers):
 * whether it defines a name or only binds it by a `use`, and the path that `use` names.
 */
import { describe, expect, it } from 'vitest';
import { RUST_MACRO_EXPANSION } from '../languages/rust/macro-bindings.js';

const bindingOf = RUST_MACRO_EXPANSION.bindingOf;

describe('a macro expansion binds or defines a name', () => {
  it('a pub use in a group is a re-export, with its path', () => {
    const serde = 'pub use serde_core::{\n    de, forward_to_deserialize_any, ser, Deserialize, Deserializer,\n};\nmod private;';
    expect(bindingOf(serde, 'Deserialize')).toEqual({ binding: 'reexport', path: 'serde_core::Deserialize' });
    expect(bindingOf('pub(crate) use crate::de::{Deserialize, Deserializer};', 'Deserializer')).toEqual({ binding: 'reexport', path: 'crate::de::Deserializer' });
  });

  it('nested groups and renames give the path as written', () => {
    expect(bindingOf('pub use a::{b::{C, D as E}, f};', 'E')).toEqual({ binding: 'reexport', path: 'a::b::D' });
    expect(bindingOf('pub use a::{b::{C, D as E}, f};', 'C')).toEqual({ binding: 'reexport', path: 'a::b::C' });
    expect(bindingOf('pub use a::{b::{C}, f};', 'f')).toEqual({ binding: 'reexport', path: 'a::f' });
  });

  it('a private use is an import', () => {
    expect(bindingOf('use std::fmt::Display;\nfn show() {}', 'Display')).toEqual({ binding: 'import', path: 'std::fmt::Display' });
  });

  it('a definition of the name is no binding, even after a use of it', () => {
    expect(bindingOf('use crate::Shape;\npub struct Shape;', 'Shape')).toBeUndefined();
    expect(bindingOf('pub mod small { pub fn draw() -> String { crate::outline(1) } }', 'draw')).toBeUndefined();
    expect(bindingOf('macro_rules! emit { () => {} }\npub use x::emit;', 'emit')).toBeUndefined();
  });

  it('a name in a string or a comment is neither', () => {
    expect(bindingOf('#[doc = "pub use a::Shape; struct Shape"]\n// use b::Shape;\nfn other() {}', 'Shape')).toBeUndefined();
    expect(bindingOf('#[doc = "the trait Shape"]\npub use a::Shape;', 'Shape')).toEqual({ binding: 'reexport', path: 'a::Shape' });
  });
});
