// Writes output/X.json from input/X.json independently of Go: JavaScript's
// JSON.stringify is RFC 8785's serialisation once object keys are sorted by
// UTF-16 code units (JavaScript's default sort). Not used by the tests.
const fs = require('fs');
const sort = v => Array.isArray(v) ? v.map(sort)
  : v && typeof v === 'object' ? Object.fromEntries(Object.keys(v).sort().map(k => [k, sort(v[k])]))
  : v;
for (const f of fs.readdirSync('input')) {
  let v = JSON.parse(fs.readFileSync('input/' + f, 'utf8'));
  if (v && typeof v === 'object' && !Array.isArray(v)) delete v.signature;
  fs.writeFileSync('output/' + f, JSON.stringify(sort(v)));
}
