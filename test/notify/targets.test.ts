// NotifyUrls parsing: every scheme, Telegram's bot token, and clear errors that never repeat a secret.
import { describe, expect, it } from 'vitest';
import { parseTarget, parseTargets } from '../../src/notify/targets.js';

describe('NotifyUrls', () => {
  it('reads each scheme', () => {
    expect(parseTarget('ntfy://u:p@ntfy.example:8080/alerts')).toMatchObject({ scheme: 'ntfy', url: 'http://ntfy.example:8080', topic: 'alerts', auth: `Basic ${Buffer.from('u:p').toString('base64')}` });
    expect(parseTarget('ntfys://ntfy.sh/alerts')).toMatchObject({ url: 'https://ntfy.sh' });
    expect(parseTarget('tgram://123:ABC-def/-100200')).toMatchObject({ scheme: 'tgram', bot: '123:ABC-def', chat: '-100200', api: 'https://api.telegram.org', redacted: 'tgram://…/-100200' });
    expect(parseTarget('barks://api.day.app/KEY123')).toMatchObject({ scheme: 'bark', url: 'https://api.day.app/KEY123', redacted: 'barks://api.day.app/…' });
    expect(parseTarget('mailto://me%40x.org:pw@smtp.x.org:587/you@y.org')).toMatchObject({
      scheme: 'mailto', host: 'smtp.x.org', port: 587, secure: false, user: 'me@x.org', pass: 'pw', from: 'me@x.org', to: 'you@y.org', verifyTls: true,
      redacted: 'mailto://smtp.x.org:587/you@y.org',
    });
    expect(parseTarget('jsons://hook.example/path?a=1')).toMatchObject({ scheme: 'json', url: 'https://hook.example/path?a=1' });
  });

  it('skips bad lines with a message that names no secret', () => {
    const { targets, errors } = parseTargets('ntfy://h/t\n# a comment\nhttp://x/y\ntgram://only-token\nmailto://u:topsecret@host/not-an-address\n');
    expect(targets).toHaveLength(1);
    expect(errors).toHaveLength(3);
    expect(errors.join(' ')).not.toMatch(/topsecret|only-token/);
  });
});
