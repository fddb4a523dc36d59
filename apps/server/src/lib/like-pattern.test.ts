import { describe, expect, it } from 'vitest';
import { containsPattern } from './like-pattern.ts';

describe('containsPattern', () => {
  it('escapes the LIKE wildcards and the escape character, and wraps the text in «%»', () => {
    expect(containsPattern('vesta')).toBe('%vesta%');
    expect(containsPattern('50%')).toBe('%50\\%%');
    expect(containsPattern('a_b')).toBe('%a\\_b%');
    expect(containsPattern('c:\\d')).toBe('%c:\\\\d%');
  });
});
