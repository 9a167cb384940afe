// Judge suite E's E3 request (suite A's path and headers) and handler, as web-e3.mjs times them
// and count-web.mjs counts them.

export const E3_URL = 'http://localhost:3000/api/v1/items/12345?sort=desc&page=2';
export const E3_HEADERS = {
  host: 'localhost:3000',
  'user-agent':
    'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36',
  accept: 'application/json, text/plain, */*',
  'accept-encoding': 'gzip, deflate, br',
  'accept-language': 'en-US,en;q=0.9',
  referer: 'https://example.com/dashboard',
};

/** The handler the loggers wrap: `new Response('ok')`. */
export const e3Handler = () => new Response('ok');
