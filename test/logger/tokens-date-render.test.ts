// Date renderings of :date, and the once-a-second cache.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { clfDate, formatDate } from '../../src/logger/core/clf-date.js';

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

describe('formatDate iso', () => {
  it('writes each millisecond of a second and of the seconds around it', () => {
    const start = Date.UTC(2003, 4, 6, 7, 8, 9);
    for (const ms of [start, start + 7, start + 45, start + 999, start + 1000, start - 1]) {
      assert.equal(formatDate(ms, 'iso'), new Date(ms).toISOString());
    }
  });

  it('agrees with toISOString before 1970 and after 9999', () => {
    for (const ms of [-1, -999, -1001, Date.UTC(-50, 0, 1, 0, 0, 0, 5), 8.64e15, 253402300800123]) {
      assert.equal(formatDate(ms, 'iso'), new Date(ms).toISOString());
    }
  });

  it('drops a fraction of a millisecond, as Date does (mocked clocks give them)', () => {
    for (const ms of [1000.5, 1999.999, -0.5, -1000.25]) {
      assert.equal(formatDate(ms, 'iso'), new Date(ms).toISOString());
    }
  });

  it('throws as toISOString does for an invalid date', () => {
    assert.throws(() => formatDate(new Date(Number.NaN), 'iso'), RangeError);
  });

  it('throws as toISOString does past the last valid time, even within its second', () => {
    assert.equal(formatDate(8.64e15, 'iso'), new Date(8.64e15).toISOString());
    assert.throws(() => formatDate(8.64e15 + 1, 'iso'), RangeError);
    assert.throws(() => formatDate(-8.64e15 - 1, 'iso'), RangeError);
  });
});

describe('local dates', () => {
  it('a cached local rendering moves on with the second, and its milliseconds with every call', () => {
    const at = Date.UTC(2000, 9, 10, 13, 55, 36, 789);
    const offset = -new Date(at).getTimezoneOffset();
    const local = (ms: number) => new Date(ms + offset * 60_000).toISOString().slice(11, 23);
    for (const ms of [at, at + 1, at + 1000, at + 61_000]) {
      assert.equal(formatDate(ms, '%H:%M:%S.%L'), local(ms));
    }
  });

  it('an out-of-range time gives no date, as the UTC renderings throw for it', () => {
    assert.equal(formatDate(9e15, 'iso-local'), undefined);
  });
});
