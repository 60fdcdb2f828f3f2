import Fastify from 'fastify';
import { describe, expect, it } from 'vitest';
import { allowedMethods } from './allowed-methods.js';

describe('allowedMethods', async () => {
  const app = Fastify();
  app.get('/*', async () => 'page');
  app.post('/api/login', async () => 'ok');
  app.options('/icons/*', async () => '');
  await app.ready();
  const servesPages = (path: string) => !path.startsWith('/api/');

  it('lists every method with a route for the path, HEAD with GET', () => {
    expect(allowedMethods(app, '/category/git', servesPages)).toEqual(['GET', 'HEAD']);
    expect(allowedMethods(app, '/api/login', servesPages)).toEqual(['POST']);
  });

  it('does not count a whole-path catch-all where it would answer 404', () => {
    expect(allowedMethods(app, '/api/nothing', servesPages)).toEqual([]);
    expect(allowedMethods(app, '/api/nothing')).toEqual(['GET', 'HEAD']);
  });

  it('does not count a preflight route alone', () => {
    const icons = Fastify();
    icons.get('/icons/:set', async () => '');
    icons.options('/icons/*', async () => '');
    expect(allowedMethods(icons, '/icons/a/b/c.svg')).toEqual([]);
    expect(allowedMethods(icons, '/icons/a')).toEqual(['GET', 'HEAD', 'OPTIONS']);
  });
});
