// Date renderings of :date, and the once-a-second cache.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clfDate, formatDate } from '../../src/logger/clf-date.js';

describe('clfDate', () => {
  it('pads day, hours, minutes and seconds, and writes +0000', () => {
    assert.equal(clfDate(new Date(Date.UTC(2024, 0, 5, 3, 4, 9))), '05/Jan/2024:03:04:09 +0000');
  });

  it('uses UTC whatever the local zone', () => {
    assert.equal(clfDate(new Date('2000-10-10T23:55:36-05:00')), '11/Oct/2000:04:55:36 +0000');
  });

  it('names every month', () => {
    const months = Array.from({ length: 12 }, (_, m) =>
      clfDate(new Date(Date.UTC(2020, m, 15))).slice(3, 6),
    );
    assert.deepEqual(months, [
      'Jan',
      'Feb',
      'Mar',
      'Apr',
      'May',
      'Jun',
      'Jul',
      'Aug',
      'Sep',
      'Oct',
      'Nov',
      'Dec',
    ]);
  });
});

describe('formatDate', () => {
  const date = new Date(Date.UTC(2000, 9, 10, 13, 55, 36, 789));

  it('renders clf, iso and web', () => {
    assert.equal(formatDate(date, 'clf'), '10/Oct/2000:13:55:36 +0000');
    assert.equal(formatDate(date, 'iso'), '2000-10-10T13:55:36.789Z');
    assert.equal(formatDate(date, 'web'), 'Tue, 10 Oct 2000 13:55:36 GMT');
  });

  it('gives undefined for an unknown format', () => {
    assert.equal(formatDate(date, 'CLF'), undefined);
  });

  it('reuses the rendering within a second and renders again in the next', () => {
    const start = Date.UTC(2001, 1, 2, 3, 4, 5);
    assert.equal(formatDate(new Date(start + 1), 'clf'), '02/Feb/2001:03:04:05 +0000');
    assert.equal(formatDate(new Date(start + 999), 'clf'), '02/Feb/2001:03:04:05 +0000');
    assert.equal(formatDate(new Date(start + 1000), 'clf'), '02/Feb/2001:03:04:06 +0000');
    assert.equal(formatDate(new Date(start - 1), 'web'), 'Fri, 02 Feb 2001 03:04:04 GMT');
  });

  it('takes a time in milliseconds as well as a Date', () => {
    const ms = Date.UTC(2001, 1, 2, 3, 4, 5, 678);
    for (const format of ['clf', 'iso', 'web']) {
      assert.equal(formatDate(ms, format), formatDate(new Date(ms), format));
    }
  });
});
