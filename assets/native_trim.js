/* A fast String.prototype.trim again, with the built-in meaning.
 *
 * Dash serves @babel/polyfill 7 (core-js 2) before every page script. Its feature test
 * expects U+180E to count as white space, which Unicode 6.3 took back and Chromium follows,
 * so the test fails and core-js replaces the browser's trim with one made of two regular
 * expressions: 2.8 us a call against 0.04 us for the built-in (100,000 calls in headless
 * Chromium, 25 Nov 2026). Plotly trims strings for every point it styles (its colour parser,
 * d3's class lists), so on the explorer's SVG scatter (2,921 to 4,788 points) the replaced trim cost 0.13-1.2 s of
 * the page's CPU per load (CPU profile of a reload, self time of core-js's trim).
 *
 * The built-in one is gone by the time this file runs (assets load after the polyfill), so
 * this writes it again, as the language defines it: drop the WhiteSpace and LineTerminator
 * characters at both ends (tab, line feed, vertical tab, form feed, carriage return, U+FEFF,
 * the Unicode "Zs" spaces U+0020, U+00A0, U+1680, U+2000-U+200A, U+202F, U+205F, U+3000, and
 * U+2028, U+2029). core-js's version also drops U+180E; the built-in, and so this one, keep
 * it. It is set whatever trim the page has: core-js makes its replacements print as
 * "[native code]", so they cannot be told apart, and in every current browser its test
 * fails as above. tests/e2e/test_page_scripts.py compares it with the built-in trim of a
 * fresh frame on every character from U+0000 to U+FFFF.
 */
(function () {
    'use strict';

    function white(code) {
        return (code >= 9 && code <= 13) || code === 32 || code === 0xA0 || code === 0x1680
            || (code >= 0x2000 && code <= 0x200A) || code === 0x2028 || code === 0x2029
            || code === 0x202F || code === 0x205F || code === 0x3000 || code === 0xFEFF;
    }

    function trim() {
        if (this === null || this === undefined) {
            throw new TypeError('String.prototype.trim called on null or undefined');
        }
        const text = String(this);
        let start = 0;
        let end = text.length;
        while (start < end && white(text.charCodeAt(start))) {
            start += 1;
        }
        while (end > start && white(text.charCodeAt(end - 1))) {
            end -= 1;
        }
        return start === 0 && end === text.length ? text : text.slice(start, end);
    }

    Object.defineProperty(String.prototype, 'trim', {
        value: trim, writable: true, configurable: true, enumerable: false,
    });
}());
