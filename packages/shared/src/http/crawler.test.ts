import { isbot } from 'isbot';
import { describe, expect, it } from 'vitest';
import { isCrawlerAgent } from './crawler.js';

const PERSON = 'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';
const CRAWLER = 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)';

describe('isCrawlerAgent', () => {
  it('answers as isbot does, asked once or many times', () => {
    for (let i = 0; i < 3; i++) {
      expect(isCrawlerAgent(PERSON)).toBe(false);
      expect(isCrawlerAgent(CRAWLER)).toBe(true);
    }
  });

  it('takes a missing agent as isbot takes an empty one', () => {
    expect(isCrawlerAgent(undefined)).toBe(isbot(''));
  });

  it('stays right past its memory and for agents too long to keep', () => {
    for (let i = 0; i < 1500; i++) expect(isCrawlerAgent(`${i % 2 ? CRAWLER : PERSON} ${i}`)).toBe(i % 2 === 1);
    const long = `${CRAWLER} ${'x'.repeat(600)}`;
    expect(isCrawlerAgent(long)).toBe(isbot(long));
    expect(isCrawlerAgent(`${PERSON} ${'y'.repeat(600)}`)).toBe(false);
  });
});
