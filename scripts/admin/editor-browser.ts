/**
 * The web editor's own script, run in the browser after Decap CMS's bundle and before `CMS.init()`
 * (admin-page.ts loads it; editor-script.ts bundles it). It teaches the CMS what its configuration
 * cannot say: how a record file is read and written (record-file.ts), a new record's file name and
 * id, keywords split at `;`, the volume a typed numeral means (form-rules.ts), a preview that reads
 * like the published record, and messages in the editors' words (docs/web-editor.md).
 *
 * No DOM or React types here (the project compiles for Node): the CMS's globals are described
 * below as far as this script uses them.
 */
import { ABSTRACT_PATTERN } from './abstract-pattern.ts';
import {
  FILE_NAME,
  ID_WIDGET,
  RECORD_FORMAT,
  VOLUME_WIDGET,
  fileNameOf,
  nextFreeId,
  rankVolumeHits,
  splitKeywords,
  volumeSearchTerm,
  type Collection,
  type VolumeHit,
} from './form-rules.ts';
import { readRecord, writeRecord } from './record-file.ts';

/** An Immutable.js Map or List, as the CMS hands them. */
interface Immutable {
  get(key: string | number): unknown;
  set(key: string, value: unknown): Immutable;
  delete(key: string): Immutable;
  clear(): Immutable;
  push(...values: unknown[]): Immutable;
  toJS(): unknown;
  size: number;
}
type Element = unknown;
type CreateElement = (type: unknown, props?: Record<string, unknown> | null, ...children: unknown[]) => Element;
interface Component<P, S> {
  props: P;
  state: S;
  setState(state: Partial<S> | ((state: S) => Partial<S>)): void;
}
interface QueryResult {
  payload: { hits: VolumeHit[] };
}
interface ControlProps {
  value: unknown;
  onChange(value: unknown): void;
  forID: string;
  entry: Immutable;
  collection: Immutable;
  field: Immutable;
  query(forID: string, collection: string, fields: string[], term: string, ...rest: unknown[]): Promise<QueryResult>;
  [prop: string]: unknown;
}
interface Control {
  isValid?(): unknown;
}
interface PreviewProps {
  entry: Immutable;
  getCollection(collection: string, slug: string): Promise<Immutable>;
}
interface Cms {
  registerCustomFormat(
    name: string,
    extension: string,
    format: { fromFile(text: string): unknown; toFile(data: Record<string, unknown>, order?: string[]): string },
  ): void;
  registerEventListener(listener: { name: string; handler(event: { entry: Immutable }): unknown }): void;
  registerWidget(name: string, control: unknown, preview?: unknown): void;
  getWidget(name: string): { control: unknown; preview: unknown } | undefined;
  registerPreviewTemplate(collection: string, template: unknown): void;
  registerPreviewStyle(style: string, options: { raw: true }): void;
  getLocale(locale: string): Record<string, Record<string, Record<string, string>>> | undefined;
  registerLocale(locale: string, phrases: unknown): void;
  init(): void;
}
interface Page {
  CMS: Cms;
  h: CreateElement;
  createClass<P, S>(spec: Record<string, unknown> & ThisType<Component<P, S> & Record<string, unknown>>): unknown;
  /** The page's settings (admin-page.ts): the fields that are left out of the file when empty. */
  JOURNAL_EDITOR: { optional: Record<string, string[]> };
}

const page = globalThis as unknown as Page;
const { CMS, h, createClass } = page;

CMS.registerCustomFormat(RECORD_FORMAT, 'yaml', {
  fromFile: readRecord,
  toFile: (data, order) => writeRecord(data, order ?? []),
});

CMS.registerEventListener({
  name: 'preSave',
  handler({ entry }) {
    const collection = entry.get('collection') as Collection;
    let data = entry.get('data') as Immutable;
    // An optional field left empty is left out, so the record takes the journal's default (an
    // optional field written as "" means something else, or is not valid at all).
    for (const name of page.JOURNAL_EDITOR.optional[collection] ?? []) {
      const value = data.get(name) as Immutable | string | null | undefined;
      if (value === '' || value === null || (typeof value === 'object' && value.size === 0)) data = data.delete(name);
    }
    const keywords = data.get('keywords') as Immutable | string | undefined;
    if (keywords && typeof keywords === 'object')
      data = data.set('keywords', keywords.clear().push(...splitKeywords(keywords.toJS() as string[])));
    // An older record names its volume by id; once a volume is chosen, it names it alone (the
    // check's own advice), and the two cannot disagree.
    if (collection === 'manuscripts' && data.get('volume')) data = data.delete('citation_volume');
    if (entry.get('newRecord'))
      data = data.set(FILE_NAME, fileNameOf(collection, data.toJS() as Record<string, unknown>));
    return data;
  },
});

const en = CMS.getLocale('en');
if (en?.['ui']?.['toast'])
  CMS.registerLocale('en', {
    ...en,
    ui: {
      ...en['ui'],
      toast: {
        ...en['ui']['toast'],
        missingRequiredField: 'Not saved: a field is empty or not as expected. The field says what it needs, in red.',
      },
    },
  });

/**
 * A record's id: a new record is offered the next free one, and an id another record of the
 * collection has is refused before saving (the check would refuse it after).
 */
const NumberControl = CMS.getWidget('number')!.control;
CMS.registerWidget(
  ID_WIDGET,
  createClass<ControlProps, { taken: Map<number, string> | undefined }>({
    getInitialState() {
      return { taken: undefined };
    },
    componentDidMount() {
      const { query, forID, collection, entry } = this.props;
      const own = entry.get('newRecord') ? undefined : entry.get('slug');
      void query(forID, collection.get('name') as string, ['id'], '').then((result) => {
        const taken = new Map<number, string>();
        for (const hit of result.payload.hits)
          if (hit.slug !== own && typeof hit.data['id'] === 'number') taken.set(hit.data['id'], hit.slug);
        this.setState({ taken });
        const value = this.props.value;
        if (entry.get('newRecord') && (value === undefined || value === null || value === ''))
          this.props.onChange(nextFreeId([...taken.keys()]));
      });
    },
    isValid() {
      const inner = (this['inner'] as Control | undefined)?.isValid?.() ?? true;
      if (inner !== true) return inner;
      const taken = this.state.taken;
      const id = Number(this.props.value);
      const other = taken?.get(id);
      if (!taken || other === undefined) return true;
      return {
        error: {
          type: 'CUSTOM',
          message: `${id} is already the id of ${other}: the next free id is ${nextFreeId([...taken.keys()])}.`,
        },
      };
    },
    render() {
      return h(NumberControl, { ...this.props, ref: (control: unknown) => (this['inner'] = control) });
    },
  }),
  CMS.getWidget('number')!.preview,
);

/** A manuscript's volume: the relation list, with the volume the typed text names exactly first. */
const RelationControl = CMS.getWidget('relation')!.control;
CMS.registerWidget(
  VOLUME_WIDGET,
  createClass<ControlProps, object>({
    query(forID: string, collection: string, fields: string[], term: string, ...rest: unknown[]) {
      return this.props.query(forID, collection, fields, volumeSearchTerm(term), ...rest).then((result) => ({
        ...result,
        payload: { ...result.payload, hits: rankVolumeHits(term, result.payload.hits) },
      }));
    },
    isValid() {
      return (this['inner'] as Control | undefined)?.isValid?.() ?? true;
    },
    // The CMS asks the control whether to render it again (Widget.js); the relation list's answer
    // includes the search's results arriving, which show the chosen volume's label.
    shouldComponentUpdate(next: ControlProps) {
      const now = this.props;
      return (
        now.value !== next.value ||
        now['hasActiveStyle'] !== next['hasActiveStyle'] ||
        now['queryHits'] !== next['queryHits']
      );
    },
    render() {
      return h(RelationControl, {
        ...this.props,
        query: this['query'],
        ref: (control: unknown) => (this['inner'] = control),
      });
    },
  }),
  CMS.getWidget('relation')!.preview,
);

/** The preview of a record: what the published record shows, names instead of keys. */
function previewOf(
  render: (data: Record<string, unknown>, named: (collection: string, key: unknown) => string) => Element,
) {
  return createClass<PreviewProps, { names: Record<string, string> }>({
    getInitialState() {
      return { names: {} };
    },
    render() {
      const data = (this.props.entry.get('data') as Immutable).toJS() as Record<string, unknown>;
      const named = (collection: string, key: unknown): string => {
        if (typeof key !== 'string' || !key) return '';
        const id = `${collection}/${key}`;
        const known = this.state.names[id];
        if (known !== undefined) return known;
        const pending = ((this['pending'] as Set<string> | undefined) ??= new Set());
        if (!pending.has(id)) {
          pending.add(id);
          this.props
            .getCollection(collection, key)
            .then((found) => {
              const record = ((found.get('data') as Immutable | undefined)?.toJS?.() ?? found.get('data')) as
                Record<string, unknown> | undefined;
              const name =
                collection === 'authors'
                  ? [record?.['name'], record?.['surname']].filter(Boolean).join(' ')
                  : [record?.['citation_journal_title'], record?.['full_date'] && `(${String(record['full_date'])})`]
                      .filter(Boolean)
                      .join(' ');
              // From the state as it is then: several names arrive one after the other.
              this.setState((state) => ({ names: { ...state.names, [id]: name || key } }));
            })
            .catch(() => this.setState((state) => ({ names: { ...state.names, [id]: key } })));
        }
        return '';
      };
      return h('article', { className: 'record' }, render(data, named));
    },
  });
}

const text = (value: unknown) => (typeof value === 'string' || typeof value === 'number' ? String(value) : '');
const line = (label: string, value: unknown) =>
  text(value) ? h('p', null, h('span', { className: 'label' }, `${label}: `), text(value)) : null;
const abstractPattern = new RegExp(ABSTRACT_PATTERN);

CMS.registerPreviewStyle(
  `body { font: 16px/1.5 Georgia, serif; margin: 1.5rem; color: #222 }
   h1 { font-size: 1.5rem; line-height: 1.25 } .label { color: #666 } .muted { color: #666 }`,
  { raw: true },
);

CMS.registerPreviewTemplate(
  'manuscripts',
  previewOf((data, named) => {
    const authors = Array.isArray(data['authors']) ? data['authors'].map((key) => named('authors', key)) : [];
    const keywords = Array.isArray(data['keywords']) ? `${data['keywords'].join(', ')}.` : text(data['keywords']);
    const abstract = text(data['abstract']);
    return [
      h(
        'p',
        { className: 'muted' },
        [named('volumes', data['volume']), text(data['section'])].filter(Boolean).join(' · '),
      ),
      h('h1', null, text(data['citation_title'])),
      h('p', null, authors.filter(Boolean).join(', ')),
      line('Published', data['citation_date']),
      abstractPattern.test(abstract)
        ? h('div', { dangerouslySetInnerHTML: { __html: abstract } })
        : h('p', null, abstract),
      line('Keywords', keywords),
      line('UDC', data['udc']),
      line('DOI', data['doi']),
      line('PDF', data['document']),
    ];
  }),
);

CMS.registerPreviewTemplate(
  'authors',
  previewOf((data) => [
    h('h1', null, [text(data['name']), text(data['surname'])].filter(Boolean).join(' ')),
    h('p', null, text(data['institution'])),
    line('ORCID', data['orcid']),
  ]),
);

CMS.registerPreviewTemplate(
  'volumes',
  previewOf((data) => [
    h('h1', null, text(data['citation_journal_title'])),
    line('Published', data['full_date']),
    line('Pages', [text(data['first_page']), text(data['last_page'])].filter(Boolean).join('–')),
    line('UDC', data['udc']),
    line('PDF', data['pdf']),
  ]),
);

CMS.init();
