import { describe, expect, it } from 'vitest';
import { containsAny, containsPattern, distinctiveDigits } from './like-pattern.ts';

describe('containsPattern', () => {
  it('escapes the LIKE wildcards and the escape character, and wraps the text in «%»', () => {
    expect(containsPattern('vesta')).toBe('%vesta%');
    expect(containsPattern('50%')).toBe('%50\\%%');
    expect(containsPattern('a_b')).toBe('%a\\_b%');
    expect(containsPattern('c:\\d')).toBe('%c:\\\\d%');
  });
});

describe('containsAny', () => {
  it('looks a number with common parts up by its longest run of digits, and compares the whole text on the rows found', () => {
    expect(distinctiveDigits('кд-2025/0000042')).toBe('0000042');
    // Too short to be distinctive, the whole text already, or no digits: the whole text is asked of the index.
    expect(distinctiveDigits('duster №77')).toBeNull();
    expect(distinctiveDigits('4506123456')).toBeNull();
    expect(distinctiveDigits('solaris')).toBeNull();
    const match = containsAny(['кд-2025/0000042', 'solaris']);
    expect(match.params).toEqual(['%0000042%', 'кд-2025/0000042', '%solaris%']);
    expect(match.condition('t', 4)).toBe('((t LIKE $4 AND strpos(t, $5) > 0) OR t LIKE $6)');
    expect(containsAny(['50%']).condition('t', 1)).toBe('t LIKE $1');
    expect(containsAny(['50%']).params).toEqual(['%50\\%%']);
  });
});
