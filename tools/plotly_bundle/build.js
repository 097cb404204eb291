/* Build ../../assets/plotly-<version>-copa.min.js from entry.js.
 *
 * The settings are plotly.js's own (its esbuild-config.js; the tasks/ folder that file reads
 * is not in the npm package, so they are repeated here): an IIFE defining the global Plotly,
 * CSS inlined, GLSL shaders minified, regl deduplicated to Plotly's fork, ES2016.
 */
'use strict';

const fs = require('fs');
const path = require('path');
const esbuild = require('esbuild');
const { environmentPlugin } = require('esbuild-plugin-environment');
const { glsl } = require('esbuild-plugin-glsl');
const InlineCSSPlugin = require('esbuild-plugin-inline-css');

const version = require('plotly.js/package.json').version;
const assets = path.join(__dirname, '..', '..', 'assets');
const outfile = path.join(assets, `plotly-${version}-copa.min.js`);

for (const old of fs.readdirSync(assets)) {
    if (/^plotly-.*-copa\.min\.js$/.test(old) && path.join(assets, old) !== outfile) {
        fs.unlinkSync(path.join(assets, old));  // one bundle at a time in assets/
    }
}

esbuild.build({
    entryPoints: [path.join(__dirname, 'entry.js')],
    outfile,
    format: 'iife',
    globalName: 'Plotly',
    bundle: true,
    minify: true,
    sourcemap: false,
    legalComments: 'eof',  // the bundled packages' licence notices, at the end
    banner: { js: `/* plotly.js v${version} (MIT licence, Plotly, Inc.), copa-dash's partial bundle: tools/plotly_bundle */` },
    plugins: [InlineCSSPlugin(), glsl({ minify: true }), environmentPlugin({ NODE_DEBUG: false })],
    alias: { regl: '@plotly/regl', stream: 'stream-browserify' },
    define: { global: 'window', 'define.amd': 'false' },
    target: 'es2016',
    logLevel: 'warning',
}).then(() => {
    console.log(`${path.relative(process.cwd(), outfile)}: ${fs.statSync(outfile).size} bytes`);
}).catch(() => process.exit(1));
