// Stand-in for quatcheck's impls/js/protocol.js in a standalone reproducer (written by `quatcheck findings`).
// The adapter file beside it calls serve(library, version, families) once it has imported its package; in
// quatcheck that answers requests over a pipe, here it hands the families to repro.mjs.
'use strict';
const fs = require('fs');
const path = require('path');

let resolveServed;
const served = new Promise((resolve) => { resolveServed = resolve; });

function serve(library, version, families) { resolveServed({ library, version, families }); }

// The version of an installed package, read from its package.json in the node_modules folder repro.sh links.
function packageVersion(name) {
  const file = path.join(__dirname, '..', 'node_modules', name, 'package.json');
  return JSON.parse(fs.readFileSync(file, 'utf8')).version;
}

module.exports = { serve, packageVersion, served };
