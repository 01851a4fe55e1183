/*
 * The journal's OAI-PMH 2.0 repository at `<base_url>/oai` (docs/oai-pmh.md): the six verbs, answered
 * from the files the build writes under oai/ (items.json and the chunks under items/, identify.xml,
 * formats.xml, sets.xml and records/<id>.xml). A request reads the index's head, items.json, and
 * only the chunks it needs (scripts/generator/render/oai/oai-index.ts says how they are cut).
 * Section numbers below are the protocol's:
 * https://www.openarchives.org/OAI/openarchivesprotocol.html
 *
 * One file for every place it runs: the preview and `npm run dev` (Node) call `answer`, Cloudflare
 * Pages runs it as `_worker.js` (`fetch`), nginx as `js_import` (`nginx`). So it is plain
 * JavaScript of the subset nginx's njs 0.7.9 runs: no imports, classes, destructuring, spread,
 * `for...of`, optional chaining or `??`, and only a default export.
 */
/* global Response */

/** One file read a record, and Cloudflare's free plan allows a worker 50 of them a request. */
var RECORDS_PAGE = 40;
/** Headers come from the index alone: a page of them reads no record. */
var IDENTIFIERS_PAGE = 400;
var METADATA_PREFIX = 'oai_dc';
var XML_TYPE = 'text/xml; charset=utf-8';
var TEXT_TYPE = 'text/plain; charset=utf-8';
var METHODS = 'GET, HEAD, POST';

/** 4: each verb's arguments; a resumptionToken, where a verb takes one, comes alone (3.5). */
var VERBS = {
  Identify: { required: [], optional: [] },
  ListMetadataFormats: { required: [], optional: ['identifier'] },
  ListSets: { required: [], optional: [], resumable: true },
  GetRecord: { required: ['identifier', 'metadataPrefix'], optional: [] },
  ListIdentifiers: { required: ['metadataPrefix'], optional: ['from', 'until', 'set'], resumable: true },
  ListRecords: { required: ['metadataPrefix'], optional: ['from', 'until', 'set'], resumable: true },
};
/** The order arguments are echoed in `<request>` (3.2). */
var ARGUMENTS = ['identifier', 'metadataPrefix', 'from', 'until', 'set', 'resumptionToken'];

/**
 * Answers one request. `query` is the raw query string (or, for POST, the form-encoded body);
 * `read(path)` gives the text of a file of the output folder, or null where there is none.
 */
async function answer(method, query, read, now) {
  if (method !== 'GET' && method !== 'HEAD' && method !== 'POST')
    return { status: 405, type: TEXT_TYPE, body: 'OAI-PMH is asked with GET or POST.\n', allow: METHODS };
  var files = await Promise.all([read('oai/items.json'), read('oai/identify.xml')]);
  if (files[0] === null || files[1] === null)
    return { status: 404, type: TEXT_TYPE, body: 'This site publishes no OAI-PMH repository.\n' };
  var repository = { index: JSON.parse(files[0]), identify: files[1], read: read };
  var request = parseRequest(query);
  var reply = request.error ? request : await VERBS_ANSWER[request.verb](request.args, repository);
  var echoed = reply.error === 'badVerb' || reply.error === 'badArgument' ? null : request;
  var baseUrl = /<baseURL>([^<]*)<\/baseURL>/.exec(repository.identify)[1];
  var content = reply.error ? `<error code="${reply.error}">${escape(reply.message)}</error>` : reply.xml;
  var body = `<?xml version="1.0" encoding="UTF-8"?>
<OAI-PMH xmlns="http://www.openarchives.org/OAI/2.0/" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" xsi:schemaLocation="http://www.openarchives.org/OAI/2.0/ http://www.openarchives.org/OAI/2.0/OAI-PMH.xsd">
<responseDate>${now.toISOString().slice(0, 19)}Z</responseDate>
${requestElement(echoed, baseUrl)}
${content}
</OAI-PMH>
`;
  return { status: 200, type: XML_TYPE, body: body };
}

/** 3.2: the base URL, and the arguments only when they were legal (not after badVerb or badArgument). */
function requestElement(request, baseUrl) {
  if (!request) return `<request>${baseUrl}</request>`;
  var attributes = ` verb="${request.verb}"`;
  ARGUMENTS.forEach(function (name) {
    if (name in request.args) attributes += ` ${name}="${escape(request.args[name])}"`;
  });
  return `<request${attributes}>${baseUrl}</request>`;
}

/** `{ verb, args }`, or `{ error }` for a badVerb or a badArgument (3.1.1, 3.6). */
function parseRequest(query) {
  var args = Object.create(null);
  var repeated = [];
  var pairs = query.split('&');
  for (var i = 0; i < pairs.length; i++) {
    if (pairs[i] === '') continue;
    var at = pairs[i].indexOf('=');
    var name = decode(at < 0 ? pairs[i] : pairs[i].slice(0, at));
    var value = decode(at < 0 ? '' : pairs[i].slice(at + 1));
    if (name === null || value === null) return failure('badArgument', 'The request is not correctly URL-encoded.');
    if (name in args) repeated.push(name);
    args[name] = value;
  }
  var verb = args.verb;
  delete args.verb;
  if (repeated.indexOf('verb') >= 0) return failure('badVerb', 'The verb argument is repeated.');
  if (verb === undefined) return failure('badVerb', 'The verb argument is missing.');
  if (!Object.prototype.hasOwnProperty.call(VERBS, verb)) return failure('badVerb', 'This is not an OAI-PMH verb.');
  if (repeated.length) return failure('badArgument', 'The argument ' + repeated[0] + ' is repeated.');
  var problem = argumentProblem(VERBS[verb], args);
  return problem ? failure('badArgument', problem) : { verb: verb, args: args };
}

/** What is wrong with a verb's arguments, in a sentence, or null. */
function argumentProblem(rules, args) {
  var names = Object.keys(args);
  for (var i = 0; i < names.length; i++) {
    var name = names[i];
    if (name !== 'resumptionToken' && rules.required.indexOf(name) < 0 && rules.optional.indexOf(name) < 0)
      return 'This verb takes no argument ' + name + '.';
    // XML 1.0 (2.2) has no way to write these, not even escaped: the echo in <request> would be broken.
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/.test(args[name]))
      return 'The argument ' + name + ' holds a character XML cannot carry.';
  }
  if ('resumptionToken' in args)
    return !rules.resumable
      ? 'This verb takes no resumptionToken.'
      : names.length > 1
        ? 'A resumptionToken comes alone, without other arguments.'
        : null;
  for (var j = 0; j < rules.required.length; j++)
    if (!(rules.required[j] in args)) return 'This verb needs the argument ' + rules.required[j] + '.';
  // The syntax the protocol's schema gives each (OAI-PMH.xsd); for an identifier, a URI's: a
  // scheme, a colon, and only the characters RFC 3986 lets a URI hold.
  if ('identifier' in args && !/^[A-Za-z][A-Za-z0-9+.-]*:[A-Za-z0-9\-._~:/?#[\]@!$&'()*+,;=%]+$/.test(args.identifier))
    return 'The identifier is not a URI.';
  if ('metadataPrefix' in args && !/^[A-Za-z0-9\-_.!~*'()]+$/.test(args.metadataPrefix))
    return 'The metadataPrefix is not a metadata prefix.';
  if ('set' in args && !/^[A-Za-z0-9\-_.!~*'()]+(:[A-Za-z0-9\-_.!~*'()]+)*$/.test(args.set))
    return 'The set is not a setSpec.';
  // 3.3.1: a finer granularity than the repository's (days) is a badArgument.
  var dates = ['from', 'until'];
  for (var k = 0; k < dates.length; k++)
    if (dates[k] in args && !isDay(args[dates[k]]))
      return 'The argument ' + dates[k] + ' is not a day as YYYY-MM-DD, the granularity of this repository.';
  if ('from' in args && 'until' in args && args.from > args.until) return 'The from date is after the until date.';
  return null;
}

var VERBS_ANSWER = {
  Identify: function (args, repository) {
    return { xml: repository.identify };
  },
  ListMetadataFormats: async function (args, repository) {
    if ('identifier' in args && !(await hasItem(repository, args.identifier))) return idDoesNotExist();
    return { xml: await repository.read('oai/formats.xml') };
  },
  ListSets: async function (args, repository) {
    if ('resumptionToken' in args) return failure('badResumptionToken', 'The list of sets is never split.');
    if (repository.index.sets.length === 0) return failure('noSetHierarchy', 'The repository has no sets yet.');
    return { xml: await repository.read('oai/sets.xml') };
  },
  GetRecord: async function (args, repository) {
    if (args.metadataPrefix !== METADATA_PREFIX) return cannotDisseminateFormat();
    if (!(await hasItem(repository, args.identifier))) return idDoesNotExist();
    return { xml: `<GetRecord>${await readRecord(repository, idOf(repository.index, args.identifier))}</GetRecord>` };
  },
  ListIdentifiers: function (args, repository) {
    return listAnswer('ListIdentifiers', args, repository);
  },
  ListRecords: function (args, repository) {
    return listAnswer('ListRecords', args, repository);
  },
};

/**
 * A page of ListIdentifiers or ListRecords. The token names the selection and the last item
 * given, by datestamp and id: the list is sorted by them, so the next page starts after that item
 * in whatever list a rebuild has written since (3.5). The list is read in chunks: the head's counts
 * give completeListSize and cursor, and only the chunks the page falls in are read, with those a
 * `from` or an `until` cuts in two.
 */
async function listAnswer(verb, args, repository) {
  var index = repository.index;
  var selection = args;
  if ('resumptionToken' in args) {
    selection = readToken(args.resumptionToken, verb, index.identifierPrefix);
    if (!selection) return failure('badResumptionToken', 'This resumptionToken was not given by this repository.');
  } else if (args.metadataPrefix !== METADATA_PREFIX) return cannotDisseminateFormat();
  var list = listOf(repository, selection.set);
  var total = 0;
  if (list) for (var k = 0; k < list.chunks.length; k++) total += await list.count(k, selection);
  if (total === 0) return failure('noRecordsMatch', 'No record matches these arguments.');
  // The chunk the page starts in: the first whose last item comes after the token's.
  var first = 0;
  if (selection.after)
    while (first < list.chunks.length && !isAfter(lastOf(list.chunks[first]), selection.after)) first++;
  var start = 0;
  for (var before = 0; before < first; before++) start += await list.count(before, selection);
  var size = verb === 'ListRecords' ? RECORDS_PAGE : IDENTIFIERS_PAGE;
  var page = [];
  for (var at = first; at < list.chunks.length && page.length < size; at++) {
    if (outside(list.chunks[at], selection)) continue;
    var items = await list.selected(at, selection);
    for (var i = 0; i < items.length && page.length < size; i++) {
      if (selection.after && !isAfter(items[i], selection.after)) start++;
      else page.push(items[i]);
    }
  }
  if (page.length === 0) return failure('noRecordsMatch', 'No record follows the last one given.');
  var entries =
    verb === 'ListRecords'
      ? await Promise.all(
          page.map(function (item) {
            return readRecord(repository, item[0]);
          }),
        )
      : page.map(function (item) {
          return headerOf(index, item);
        });
  var counts = ` completeListSize="${total}" cursor="${start}"`;
  var next = tokenOf(verb, selection, page[page.length - 1], index.identifierPrefix);
  // A list given in pages ends with an empty token; a list in one page has none.
  var token =
    start + size < total
      ? `\n<resumptionToken${counts}>${escape(next)}</resumptionToken>`
      : selection.after
        ? `\n<resumptionToken${counts}/>`
        : '';
  return { xml: `<${verb}>${lines(entries)}${token}\n</${verb}>` };
}

/**
 * Each entry after a line break, put together the way the engine running the handler copies least.
 * V8 (Cloudflare's workers, the preview) keeps a sum of strings as a list of its parts and copies
 * it once, when the reply is encoded: appended, a page of 40 records cost the handler 0.4 to 0.9 ms
 * of CPU, against 2.3 to 3.0 ms joined. njs (nginx) copies the whole string at every append: there a
 * page of records took 14 to 20 ms appended and 6 to 7 ms joined, a page of 400 headers 52 to 75 ms
 * against 22 to 26 ms (docs/oai-pmh.md, "The worker's CPU").
 */
function lines(entries) {
  if (typeof globalThis.njs === 'object') return '\n' + entries.join('\n');
  var text = '';
  for (var i = 0; i < entries.length; i++) text += '\n' + entries[i];
  return text;
}

/**
 * The list a request pages through: every item, or a set's (null for a set the repository does not
 * have), its chunks as the head gives them, `[first datestamp, first id, last datestamp, last id,
 * count]`. `count(k, selection)` and `selected(k, selection)` give chunk k's items between the
 * selection's days; the chunk is read only where the head's numbers do not tell, and once.
 */
function listOf(repository, set) {
  var index = repository.index;
  var position = set ? index.sets.indexOf(set) : -1;
  if (set && position < 0) return null;
  var list = position < 0 ? index.items : index.setItems[position];
  var prefix = position < 0 ? '' : set + '-';
  var read = [];
  var chunk = function (k) {
    if (!read[k]) read[k] = readIndexFile(repository, 'oai/items/' + prefix + list.chunks[k][1] + '.json');
    return read[k];
  };
  var selected = async function (k, selection) {
    var items = await chunk(k);
    if (!selection.from && !selection.until) return items;
    return items.filter(function (item) {
      return (!selection.from || item[1] >= selection.from) && (!selection.until || item[1] <= selection.until);
    });
  };
  var count = async function (k, selection) {
    var entry = list.chunks[k];
    if (outside(entry, selection)) return 0;
    if ((!selection.from || entry[0] >= selection.from) && (!selection.until || entry[2] <= selection.until))
      return entry[4];
    return (await selected(k, selection)).length;
  };
  return { chunks: list.chunks, count: count, selected: selected };
}

/** Whether every day of a chunk (its head entry) is outside the selection's. */
function outside(entry, selection) {
  return Boolean((selection.from && entry[2] < selection.from) || (selection.until && entry[0] > selection.until));
}

/** A chunk's last item, as the index writes an item, from its head entry. */
function lastOf(entry) {
  return [entry[3], entry[2]];
}

/** A file of the index, parsed; a missing one is a site not built whole. */
async function readIndexFile(repository, path) {
  var text = await repository.read(path);
  if (text === null) throw new Error(`${path} is missing: the site was not built whole.`);
  return JSON.parse(text);
}

/** Whether an item comes after the position `[datestamp, id]` in the index's order (datestamp, then id). */
function isAfter(item, position) {
  if (item[1] !== position[0]) return item[1] > position[0];
  var id = String(item[0]);
  // The ids are numbers: 10 comes after 9.
  if (/^\d+$/.test(id) && /^\d+$/.test(position[1])) return Number(id) > Number(position[1]);
  return id > position[1];
}

/**
 * A token: the verb, the selection and the last item given, comma-separated, and a checksum over
 * them and the repository's identifier prefix, so that a token changed by hand or given by another
 * repository is refused rather than read as something else.
 */
function tokenOf(verb, selection, last, prefix) {
  var fields = [
    verb,
    METADATA_PREFIX,
    selection.set || '',
    selection.from || '',
    selection.until || '',
    last[1],
    String(last[0]),
  ];
  return fields.join(',') + ',' + checksum(prefix + fields.join(','));
}

/** The selection a token names (with `after`, the position of the last item given), or null. */
function readToken(token, verb, prefix) {
  var fields = token.split(',');
  if (fields.length !== 8 || fields[0] !== verb || fields[1] !== METADATA_PREFIX) return null;
  if (fields[7] !== checksum(prefix + fields.slice(0, 7).join(','))) return null;
  if ((fields[3] && !isDay(fields[3])) || (fields[4] && !isDay(fields[4])) || !isDay(fields[5]) || !fields[6])
    return null;
  return { set: fields[2], from: fields[3], until: fields[4], after: [fields[5], fields[6]] };
}

/** FNV-1a, 32 bits, in base 36: enough to tell a token this repository gave from any other. */
function checksum(text) {
  var hash = 0x811c9dc5;
  for (var i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return (hash >>> 0).toString(36);
}

/** The id an identifier names (`oai:HOST:ID`, the ID as the build writes a number), or null. */
function idOf(index, identifier) {
  if (identifier.indexOf(index.identifierPrefix) !== 0) return null;
  var id = identifier.slice(index.identifierPrefix.length);
  return /^\d+$/.test(id) && String(Number(id)) === id ? Number(id) : null;
}

/** Whether a manuscript has the identifier: its id is looked for in the one block of ids whose range holds it. */
async function hasItem(repository, identifier) {
  var id = idOf(repository.index, identifier);
  var blocks = repository.index.ids;
  for (var i = 0; id !== null && i < blocks.length && blocks[i][0] <= id; i++)
    if (id <= blocks[i][1])
      return (await readIndexFile(repository, `oai/items/ids-${blocks[i][0]}.json`)).indexOf(id) >= 0;
  return false;
}

/** The record file of a manuscript, as the build wrote it: one `<record>` element. */
async function readRecord(repository, id) {
  var text = await repository.read(`oai/records/${id}.xml`);
  if (text === null) throw new Error(`oai/records/${id}.xml is missing: the site was not built whole.`);
  return text;
}

/** An item's header, the same as its record file's (ListIdentifiers reads no record). */
function headerOf(index, item) {
  var sets = '';
  for (var i = 0; i < item[2].length; i++) sets += '<setSpec>' + index.sets[item[2][i]] + '</setSpec>';
  var identifier = escape(index.identifierPrefix + item[0]);
  return `<header><identifier>${identifier}</identifier><datestamp>${item[1]}</datestamp>${sets}</header>`;
}

/** Whether `text` is a real day written YYYY-MM-DD. */
function isDay(text) {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  var time = Date.parse(text + 'T00:00:00Z');
  return !isNaN(time) && new Date(time).toISOString().slice(0, 10) === text;
}

/** A query's name or value, or null when its percent-encoding is not UTF-8. */
function decode(text) {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
    // njs 0.7.9 has no `catch` without a binding.
    // eslint-disable-next-line @typescript-eslint/no-unused-vars
  } catch (error) {
    return null;
  }
}

function escape(text) {
  var plain = String(text);
  // Most text has nothing to escape: one test instead of four replacements (njs's regular
  // expressions made a page of 400 headers cost tens of milliseconds).
  if (!/[&<>"]/.test(plain)) return plain;
  return plain.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

function failure(code, message) {
  return { error: code, message: message };
}

function idDoesNotExist() {
  return failure('idDoesNotExist', 'No record has this identifier.');
}

function cannotDisseminateFormat() {
  return failure('cannotDisseminateFormat', 'The only metadata format is ' + METADATA_PREFIX + '.');
}

/** 3.1.1.2: a POST's arguments are its body, form-encoded. */
function isForm(contentType) {
  return /^application\/x-www-form-urlencoded\b/i.test(contentType || '');
}

/** Cloudflare Pages (advanced mode, `_worker.js`): `/oai` here, everything else from the site's files. */
async function cloudflareFetch(request, env) {
  var url = new URL(request.url);
  if (url.pathname !== '/oai') return env.ASSETS.fetch(request);
  var form = request.method === 'POST' && isForm(request.headers.get('Content-Type'));
  var query = request.method === 'POST' ? (form ? await request.text() : '') : url.search.slice(1);
  var read = function (path) {
    return env.ASSETS.fetch(url.origin + '/' + path).then(function (response) {
      return response.ok ? response.text() : null;
    });
  };
  var reply = await answer(request.method, query, read, new Date());
  var headers = { 'Content-Type': reply.type };
  if (reply.allow) headers.Allow = reply.allow;
  return new Response(request.method === 'HEAD' ? null : reply.body, { status: reply.status, headers: headers });
}

/** nginx (`js_content`): the files from the location's document root. */
function nginxContent(r) {
  // njs's own module, through its global require: a bundler (wrangler's, for `_worker.js`) looks
  // for require('fs') and fails where there is no fs, but leaves globalThis alone.
  var fs = globalThis.require('fs');
  var read = function (path) {
    return fs.promises.readFile(r.variables.document_root + '/' + path, 'utf8').then(
      function (text) {
        return text;
      },
      function () {
        return null;
      },
    );
  };
  var form = r.method === 'POST' && isForm(r.headersIn['Content-Type']);
  var query = r.method === 'POST' ? (form ? r.requestText || '' : '') : r.variables.args || '';
  return answer(r.method, query, read, new Date()).then(
    function (reply) {
      r.headersOut['Content-Type'] = reply.type;
      if (reply.allow) r.headersOut.Allow = reply.allow;
      r.return(reply.status, reply.body);
    },
    function (error) {
      r.error(String(error));
      r.return(500);
    },
  );
}

export default { answer: answer, fetch: cloudflareFetch, nginx: nginxContent };
