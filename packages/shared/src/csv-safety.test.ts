import { describe, expect, it } from 'vitest';
import { escapeCsvFormula, unescapeCsvFormula } from './csv-safety.ts';

describe('CSV formula safety', () => {
  it('puts a quote in front of cells that start with = + - @, a tab or a carriage return', () => {
    expect(escapeCsvFormula("=cmd|' /C calc'!A0")).toBe("'=cmd|' /C calc'!A0");
    expect(escapeCsvFormula('+1 555 0100')).toBe("'+1 555 0100");
    expect(escapeCsvFormula('-5')).toBe("'-5");
    expect(escapeCsvFormula('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(escapeCsvFormula('\t=1')).toBe("'\t=1");
    expect(escapeCsvFormula('\r=1')).toBe("'\r=1");
  });

  it('leaves every other cell alone: text, numbers, JSON, empty cells, formula characters further in', () => {
    for (const v of ['', 'Mug', '19.99', '0', '[{"name":"Blue"}]', 'a=b', ' =1', "'quoted'", "'", 'é😀'])
      expect(escapeCsvFormula(v)).toBe(v);
  });

  it('takes the quote away on import, only before a formula character', () => {
    expect(unescapeCsvFormula("'=cmd|' /C calc'!A0")).toBe("=cmd|' /C calc'!A0");
    expect(unescapeCsvFormula("'-5")).toBe('-5');
    expect(unescapeCsvFormula("'hello")).toBe("'hello");
    expect(unescapeCsvFormula("'")).toBe("'");
    expect(unescapeCsvFormula('=1')).toBe('=1');
  });

  it('gives a text already starting with quotes before a formula character one more quote, so it survives', () => {
    expect(escapeCsvFormula("'=x")).toBe("''=x");
    expect(unescapeCsvFormula("''=x")).toBe("'=x");
  });

  it('brings every text back unchanged from export then import', () => {
    const samples = ['', "'", "''", "'=", "''+1", '=', '-', '@', '\t', '\r\n', 'plain', "'plain", "=cmd|' /C calc'!A0"];
    for (const v of samples) expect(unescapeCsvFormula(escapeCsvFormula(v))).toBe(v);
    // every text of up to three characters made of quotes, formula characters and others
    const alphabet = ["'", '=', '+', '-', '@', '\t', '\r', 'a', ' '];
    let texts = [''];
    for (let n = 0; n < 3; n++) texts = [...texts, ...texts.flatMap((t) => alphabet.map((c) => t + c))];
    for (const v of new Set(texts)) expect(unescapeCsvFormula(escapeCsvFormula(v))).toBe(v);
  });
});
